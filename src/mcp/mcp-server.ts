/**
 * The MCP server: the SDK's McpServer with every tool and the record resources. It holds no caller
 * or session state (the caller's organization and scopes arrive with each request), so any service
 * process answers any request; the route keeps idle servers for reuse (mcp.routes.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js'
import { readTools } from './read-tools.ts'
import { writeTools } from './write-tools.ts'
import { caseLeadTools } from './case-lead-tools.ts'
import { batchTools } from './batch-tools.ts'
import { registerRecordResources } from './resources.ts'
import { asZod, callerOf, runTool, withErrorShape, type JsonSchema, type McpTool } from './tool-kit.ts'

export const mcpTools: readonly McpTool[] = [...readTools, ...writeTools, ...caseLeadTools, ...batchTools]
export const toolsByName: ReadonlyMap<string, McpTool> = new Map(mcpTools.map((t) => [t.name, t]))

const INSTRUCTIONS =
  'Cairn is a CRM. Use search_records to find records by name, list_records to page through a kind with filters and a sort (sort=-amount, amount[gte]=50000), count_records for how many match, get_record for one record, ' +
  'and the write tools to create or change records; batch_write_records writes up to 1,000 records of a kind at once (all or nothing), ' +
  'and upsert_record creates or updates a record by its src_id (its id in the system it comes from). Ids are UUIDs; list pages continue with next_cursor. Amounts need the erp:read scope.'

// The SDK's Zod wrappers are built once: only the tool list is per request.
const registered = mcpTools.map((tool) => ({
  tool,
  config: {
    title: tool.title,
    description: tool.description,
    inputSchema: asZod(tool.inputSchema),
    outputSchema: asZod(withErrorShape(tool.outputSchema) as JsonSchema),
    annotations: tool.annotations,
  },
}))

// The SDK makes a new Ajv (and compiles its meta-schemas) per server unless given one: a third of
// a request's CPU when a server is built per request. One validator serves them all.
const jsonSchemaValidator = new AjvJsonSchemaValidator()

/** The caller reaches handlers as the request's authInfo (tool-kit.ts `callerOf`). */
export function buildMcpServer(version: string): McpServer {
  const server = new McpServer({ name: 'cairn-crm', title: 'Cairn CRM', version }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator })
  for (const { tool, config } of registered) {
    server.registerTool(tool.name, config, (args: Record<string, unknown>, extra) => runTool(tool, callerOf(extra), args))
  }
  registerRecordResources(server)
  return server
}
