/**
 * The tool list as one organization sees it: its custom fields (docs/custom-fields.md) written into
 * the write tools' input schemas (per kind, as `if kind is X then fields.custom_fields is ...`) and
 * named in the descriptions of the write, list and count tools. Tools are listed per request, so
 * each caller gets its own organization's fields; the tools themselves check values through the
 * records' write path, which reads the same definitions.
 */
import { customFieldsSchema, type CustomFieldDefinition } from '../records/contracts.ts'
import type { JsonSchema } from './tool-kit.ts'

interface ListedTool {
  name: string
  description?: string
  inputSchema: JsonSchema
  [key: string]: unknown
}

/** Tools whose `fields` argument is a record body, and whether it is a create's or an update's. */
const BODY_TOOLS: Record<string, 'create' | 'update'> = { create_record: 'create', upsert_record: 'create', update_record: 'update' }
const NAMED_IN = new Set([...Object.keys(BODY_TOOLS), 'batch_write_records', 'list_records', 'count_records'])

function note(d: CustomFieldDefinition): string {
  const type = d.type === 'picklist' ? `picklist: ${d.options.join(' | ')}` : d.type === 'date' ? 'date YYYY-MM-DD' : d.type
  return `${d.name} (${type})${d.required ? '*' : ''}`
}

/** One line per kind that has custom fields. */
export function customFieldGuide(defs: readonly CustomFieldDefinition[]): string {
  const byKind = new Map<string, CustomFieldDefinition[]>()
  for (const d of defs) byKind.set(d.kind, [...(byKind.get(d.kind) ?? []), d])
  return [...byKind].map(([kind, list]) => `${kind}: ${list.map(note).join(', ')}`).join('\n')
}

export function toolsWithCustomFields<T extends ListedTool>(tools: readonly T[], defs: readonly CustomFieldDefinition[]): T[] {
  if (defs.length === 0) return [...tools]
  const kinds = [...new Set(defs.map((d) => d.kind))]
  const guide =
    'Custom fields of this organization (* = required on create), written in fields.custom_fields and filtered as custom_fields.<name>, custom_fields.<name>[gte|gt|lte|lt] (numbers, dates) or custom_fields.<name>[in] (picklists):\n' +
    customFieldGuide(defs)
  return tools.map((tool) => {
    if (!NAMED_IN.has(tool.name)) return tool
    const mode = BODY_TOOLS[tool.name]
    const inputSchema = mode
      ? {
          ...tool.inputSchema,
          allOf: kinds.map((kind) => ({
            if: { properties: { kind: { const: kind } }, required: ['kind'] },
            then: { properties: { fields: { properties: { custom_fields: customFieldsSchema(defs.filter((d) => d.kind === kind), mode) } } } },
          })),
        }
      : tool.inputSchema
    return { ...tool, description: `${tool.description ?? ''}\n${guide}`, inputSchema }
  })
}
