// The JSON Schema a record form's body must satisfy: the very create or update schema the server
// validates with (src/records/record.schemas.ts), with the organization's custom fields of the kind
// as the properties of `custom_fields` (src/records/custom-fields/definition.ts).
import { createBodySchema, patchBodySchema, customFieldsSchema, type CustomFieldDefinition } from '../../../../src/web-contracts.ts'
import type { CustomField } from '../../api/customFields.ts'
import type { RecordKind } from '../../kinds.ts'

export function formBodySchema(kind: RecordKind, defs: readonly CustomField[], creating: boolean): Record<string, unknown> {
  const base = creating ? createBodySchema(kind) : patchBodySchema(kind)
  const custom = customFieldsSchema(defs as readonly CustomFieldDefinition[], creating ? 'create' : 'update')
  return { ...base, properties: { ...base.properties, custom_fields: custom } }
}
