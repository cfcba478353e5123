/**
 * Records' contracts: what other capabilities and the web app may share without the server's
 * machinery (no database, no Node.js module): the kinds and their fields, the body and list
 * schemas, list limits, and custom field definitions.
 */
export { accountKind, caseKind, contactKind, kindsByName, leadKind, opportunityKind, recordKinds } from './kinds/index.ts'
export { OPPORTUNITY_STAGES } from './kinds/opportunity.kind.ts'
export type { FieldDef, FieldType, KindName, RecordKind } from './record-kind.ts'
export { rangeFields, sortFields, type ListField } from './list-params.ts'
export { MAX_IDS_FILTER } from './list-limits.ts'
export { createBodySchema, patchBodySchema } from './record.schemas.ts'
export { CUSTOM_FIELD_TYPES, customFieldsSchema, suggestedName, type CustomFieldDefinition, type CustomFieldType } from './custom-fields/definition.ts'
export { customFieldCreateSchema, customFieldUpdateSchema } from './custom-fields/custom-fields.schemas.ts'
