/**
 * The OpenAPI document as one organization sees it: the generated document (the same for everyone,
 * from the route schemas) with the organization's custom fields written into each kind's schemas,
 * as properties of `custom_fields` (required ones listed on create), and as filter parameters of
 * the kind's list and count. Served to a signed-in caller at /api/v1/openapi/organization.json
 * (docs/custom-fields.md, "OpenAPI").
 */
import { recordKinds } from '../kinds/index.ts'
import { pluralName, schemaName } from '../record.schemas.ts'
import { customFieldsSchema, nullableValueSchema, type CustomFieldDefinition } from './definition.ts'

type Json = Record<string, any>

function setCustomFields(schemas: Json, name: string, custom: Json): void {
  const schema = schemas[name]
  if (schema?.properties?.custom_fields) schema.properties.custom_fields = { ...schema.properties.custom_fields, ...custom }
}

function filterParameters(defs: readonly CustomFieldDefinition[]): Json[] {
  const out: Json[] = []
  for (const d of defs) {
    out.push({ name: `custom_fields.${d.name}`, in: 'query', required: false, description: `${d.label} equals this value.`, schema: { type: 'string' } })
    if (d.type === 'number' || d.type === 'date') {
      for (const op of ['gte', 'gt', 'lte', 'lt']) out.push({ name: `custom_fields.${d.name}[${op}]`, in: 'query', required: false, description: `${d.label} range (${op}).`, schema: { type: 'string' } })
    }
    if (d.type === 'picklist') out.push({ name: `custom_fields.${d.name}[in]`, in: 'query', required: false, description: `${d.label} is one of these comma-separated options: ${d.options.join(', ')}.`, schema: { type: 'string' } })
  }
  return out
}

export function organizationDocument(document: Json, defs: readonly CustomFieldDefinition[]): Json {
  const doc = structuredClone(document)
  const schemas: Json = doc.components?.schemas ?? {}
  for (const kind of recordKinds) {
    const mine = defs.filter((d) => d.kind === kind.name)
    if (mine.length === 0) continue
    const name = schemaName(kind)
    const create = customFieldsSchema(mine, 'create')
    const update = customFieldsSchema(mine, 'update')
    const read = { type: 'object', properties: Object.fromEntries(mine.map((d) => [d.name, nullableValueSchema(d)])), additionalProperties: true }
    setCustomFields(schemas, `${name}Create`, create)
    setCustomFields(schemas, `${name}UpsertItem`, create)
    setCustomFields(schemas, `${name}Update`, update)
    setCustomFields(schemas, `${name}UpdateItem`, update)
    setCustomFields(schemas, name, read)
    setCustomFields(schemas, `${name}Written`, read)
    for (const operationId of [`list${pluralName(kind)}`, `count${pluralName(kind)}`]) {
      for (const item of Object.values<Json>(doc.paths ?? {})) {
        const op = item.get
        if (op?.operationId === operationId) op.parameters = [...(op.parameters ?? []), ...filterParameters(mine)]
      }
    }
  }
  doc.info = { ...doc.info, description: `${doc.info?.description ?? ''} This copy includes the custom fields of your organization.`.trim() }
  return doc
}
