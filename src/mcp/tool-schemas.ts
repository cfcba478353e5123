/**
 * How a tool's JSON schemas reach the SDK. The SDK takes Standard Schemas (it reads the JSON schema
 * for tools/list and calls `validate` on arguments and results); these carry the tool's own JSON
 * schema and let every value through, so tools/list shows exactly that schema and the arguments
 * reach the project's Ajv check (tool-kit.ts `check`), whose failures carry REST's messages.
 */
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server'
import type { JsonSchema, McpTool } from './tool-kit.ts'

export function asStandardSchema(schema: JsonSchema): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'cairn',
      validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  }
}

const confirmArgument = {
  type: 'string',
  description: 'Only after the person agreed: the confirm_token an earlier call of this tool answered with confirmation_required.',
}

/** The tool's input schema, plus `confirm` for tools that ask first (confirmation.ts). */
export function inputSchemaOf(tool: McpTool): JsonSchema {
  if (!tool.confirm) return tool.inputSchema
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, unknown>
  return { ...tool.inputSchema, properties: { ...properties, confirm: confirmArgument } }
}
