/**
 * JSON Schemas of a kind, derived from its field definitions: the create and patch bodies, the list
 * query, and the record as returned. Fastify validates with them and the OpenAPI document shows them.
 */
import { cursorSchema, limitSchema, pageSchemaOf, UUID_TEXT, uuidSchema } from '../http/schemas.ts'
import type { FieldDef, RecordKind } from './record-kind.ts'
import { listParamSchemas } from './list-params.ts'
import { customFilterParamSchemas } from './custom-fields/custom-filter-params.ts'
import { MAX_IDS_FILTER } from './list-limits.ts'
import { NOT_BLANK_PATTERN, notBlankSchema } from '../shared/required-text.ts'
import { memberFilterSchema } from './owner-filter.ts'

export { MAX_IDS_FILTER }

type Schema = Record<string, unknown>

/**
 * A kind's body or query schema as TypeScript sees it. Its fields differ per kind, so a route gets
 * an object of unknown values (the type provider reads `{ [field]: unknown }`); the schema has
 * validated them and the record layer reads them by the kind's field definitions.
 */
export interface KindObjectSchema {
  type: 'object'
  properties: Record<string, Schema>
  [keyword: string]: unknown
}

export const MAX_CUSTOM_FIELDS = 200
export const MAX_SRC_ID = 255

function valueSchema(f: FieldDef): Schema {
  switch (f.type) {
    case 'string':
    case 'text':
      return { type: 'string', maxLength: f.maxLength ?? 255 }
    case 'email':
      return { type: 'string', format: 'email', maxLength: f.maxLength ?? 320 }
    case 'url':
      return { type: 'string', format: 'uri', pattern: '^https?://', maxLength: f.maxLength ?? 2000 }
    case 'enum':
      return { type: 'string', enum: [...(f.values ?? [])] }
    case 'decimal':
      // A string keeps the exact value; a plain JSON number is accepted too.
      return {
        anyOf: [
          { type: 'string', pattern: '^-?\\d{1,16}(\\.\\d{1,2})?$' },
          { type: 'number', minimum: -1e16, maximum: 1e16 },
        ],
        description: 'Exact decimal with up to 2 fraction digits, as a string ("1234.50") or a number.',
      }
    case 'integer':
      return { type: 'integer', minimum: f.min ?? -2147483648, maximum: f.max ?? 2147483647 }
    case 'boolean':
      return { type: 'boolean' }
    case 'date':
      return { type: 'string', format: 'date' }
    case 'datetime':
      return { type: 'string', format: 'date-time' }
    case 'ref':
    case 'user':
      return uuidSchema
  }
}

function nullable(s: Schema): Schema {
  if (s.anyOf) return { ...s, anyOf: [...(s.anyOf as Schema[]), { type: 'null' }] }
  if (s.enum) return { ...s, type: ['string', 'null'], enum: [...(s.enum as unknown[]), null] }
  return { ...s, type: [s.type as string, 'null'] }
}

function describe(f: FieldDef, s: Schema): Schema {
  const parts = [f.label]
  if (f.type === 'ref') parts.push(`id of a ${f.ref} of the same organization`)
  if (f.type === 'user') parts.push('id of a member of the organization')
  if (f.readOnly) parts.push('read-only')
  if (f.default !== undefined) parts.push(`${JSON.stringify(f.default)} when omitted on create; never null`)
  return { description: parts.join('; '), ...s }
}

const customFieldsSchema: Schema = {
  type: 'object',
  maxProperties: MAX_CUSTOM_FIELDS,
  propertyNames: { maxLength: 100 },
  description: 'Fields with no column of their own (kept from imports, or your own), as a JSON object.',
}

const srcIdSchema: Schema = {
  type: ['string', 'null'],
  minLength: 1,
  maxLength: MAX_SRC_ID,
  description: "The source platform's identifier of an imported record; unique per organization and kind.",
}

function writableFields(kind: RecordKind): FieldDef[] {
  return kind.fields.filter((f) => !f.readOnly)
}

/**
 * A kind's name in the OpenAPI document (`case_comment` -> `CaseComment`): its schemas carry it as
 * their `title`, which names them in components/schemas (http/openapi-components.ts).
 */
export function schemaName(kind: RecordKind): string {
  return kind.name.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())
}

/** A kind's plural in operation ids: `Case comments` -> `CaseComments`. */
export function pluralName(kind: RecordKind): string {
  return kind.labelPlural.replace(/(^|\s+)([a-zA-Z])/g, (_m, _s, c: string) => c.toUpperCase())
}

/** A field's value in a write body: a required one is never null, and required text never blank (shared/required-text.ts). */
function writtenValueSchema(f: FieldDef): Schema {
  // A field with a default is a NOT NULL column: omitted, it takes the default; null is refused.
  if (!f.required) return describe(f, f.default !== undefined ? valueSchema(f) : nullable(valueSchema(f)))
  const s = notBlankSchema(valueSchema(f))
  const described = describe(f, s)
  if (s.pattern !== NOT_BLANK_PATTERN) return described
  return { ...described, description: `${described.description}; not blank (whitespace or invisible characters alone are refused); surrounding whitespace is removed` }
}

export function createBodySchema(kind: RecordKind): KindObjectSchema {
  const properties: Record<string, Schema> = {}
  for (const f of writableFields(kind)) properties[f.name] = writtenValueSchema(f)
  properties.src_id = srcIdSchema
  properties.custom_fields = customFieldsSchema
  return {
    title: `${schemaName(kind)}Create`,
    type: 'object',
    additionalProperties: false,
    required: writableFields(kind).filter((f) => f.required).map((f) => f.name),
    properties,
  }
}

export function patchBodySchema(kind: RecordKind): KindObjectSchema {
  const create = createBodySchema(kind)
  return { title: `${schemaName(kind)}Update`, type: 'object', additionalProperties: false, minProperties: 1, properties: create.properties }
}

export function recordSchema(kind: RecordKind): Schema {
  const properties: Schema = { id: { type: 'string', format: 'uuid' } }
  for (const f of kind.fields) {
    const s = valueSchema(f)
    properties[f.name] = describe(f, f.type === 'decimal' ? { type: ['string', 'null'] } : nullable(s))
  }
  properties.src_id = { type: ['string', 'null'] }
  properties.custom_fields = { type: 'object', additionalProperties: true }
  properties.created_at = { type: 'string', format: 'date-time' }
  properties.updated_at = { type: 'string', format: 'date-time' }
  return { title: schemaName(kind), type: 'object', properties, required: Object.keys(properties) }
}

/**
 * A write's answer: the record as the caller may read it. A caller without the kind's read scopes
 * (crm:read; products also erp:read) gets only id, created_at and updated_at (docs/api.md, Scopes).
 */
export function writtenRecordSchema(kind: RecordKind): Schema {
  return {
    ...recordSchema(kind),
    title: `${schemaName(kind)}Written`,
    required: ['id', 'created_at', 'updated_at'],
    description: `The ${kind.label.toLowerCase()} as written. Without the scopes to read it, only id, created_at and updated_at; without erp:read, ERP fields (amounts) are null.`,
  }
}

/** At most this many ids in one `ids` filter (a page of references in the app is at most 100). */
/** `ids=<uuid>,<uuid>,...`: one query string value, so it fits any client's URL building. */
export const idsFilterSchema: Schema = {
  type: 'string',
  pattern: `^${UUID_TEXT}(,${UUID_TEXT}){0,${MAX_IDS_FILTER - 1}}$`,
  description: `Only the records with these ids: 1-${MAX_IDS_FILTER} comma-separated UUIDs (ids not found, or of another organization, are simply absent).`,
}

export function filterableFields(kind: RecordKind): FieldDef[] {
  return kind.fields.filter((f) => f.filter)
}

export function listQuerySchema(kind: RecordKind): KindObjectSchema {
  const properties: Record<string, Schema> = {
    limit: limitSchema,
    cursor: cursorSchema,
    q: { type: 'string', minLength: 1, maxLength: 200, description: qDescription(kind) },
    updated_since: { type: 'string', format: 'date-time', description: 'Only records updated at or after this time.' },
    ids: idsFilterSchema,
  }
  for (const f of filterableFields(kind)) properties[f.name] = f.type === 'user' ? memberFilterSchema(f) : describe(f, valueSchema(f.type === 'decimal' ? { ...f, type: 'string' } : f))
  const params = listParamSchemas(kind)
  properties.sort = params.sort
  Object.assign(properties, params.filters)
  return { type: 'object', additionalProperties: false, properties, patternProperties: customFilterParamSchemas }
}

/** `GET /{kind}/count`: the list's filters, without what only pages need (limit, cursor, sort). */
export function countQuerySchema(kind: RecordKind): KindObjectSchema {
  const { limit: _limit, cursor: _cursor, sort: _sort, ...properties } = listQuerySchema(kind).properties
  return { type: 'object', additionalProperties: false, properties, patternProperties: customFilterParamSchemas }
}

export const countSchema = {
  title: 'Count',
  type: 'object',
  properties: { count: { type: 'integer', description: 'Exact number of records matching the filters.' } },
  required: ['count'],
} as const

/** `GET /{kind}/deleted`: tombstones for sync clients, newest deletion first. */
export const deletedQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: limitSchema,
    cursor: cursorSchema,
    deleted_since: { type: 'string', format: 'date-time', description: 'Only records deleted at or after this time.' },
  },
} as const

export const deletedPageSchema = pageSchemaOf(
  {
    title: 'Tombstone',
    type: 'object',
    properties: { id: { type: 'string', format: 'uuid' }, deleted_at: { type: 'string', format: 'date-time' } },
    required: ['id', 'deleted_at'],
  },
  'TombstonePage',
)

export function pageSchema(kind: RecordKind): Schema {
  return {
    title: `${schemaName(kind)}Page`,
    type: 'object',
    properties: {
      data: { type: 'array', items: recordSchema(kind) },
      next_cursor: { type: ['string', 'null'], format: 'uuid' },
      has_more: { type: 'boolean' },
    },
    required: ['data', 'next_cursor', 'has_more'],
  }
}

/** The body of POST /leads/{id}/convert; the MCP convert_lead tool checks its arguments with it too. */
export const convertLeadBodySchema = {
  title: 'LeadConvert',
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    account_id: { ...uuidSchema, description: 'Link this existing account instead of creating one from the lead.' },
    contact_id: { ...uuidSchema, description: 'Link this existing contact instead of creating one from the lead.' },
    create_opportunity: { type: 'boolean', default: false, description: 'Also create an opportunity.' },
    opportunity_name: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: NOT_BLANK_PATTERN,
      description: 'Name of the new opportunity (implies create_opportunity); not blank, surrounding whitespace removed. Without it, the lead\'s company.',
    },
  },
} as const

/** What a lead was converted into: the convert answer's `conversion` and lead.converted's `data.conversion` (LeadConversion). */
export const leadConversionSchema = {
  title: 'LeadConversionOutcome',
  type: 'object',
  properties: {
    account_id: { type: 'string', format: 'uuid' },
    account_created: { type: 'boolean', description: 'True: the conversion created the account; false: it attached an existing one.' },
    contact_id: { type: 'string', format: 'uuid' },
    contact_created: { type: 'boolean', description: 'True: the conversion created the contact; false: it attached an existing one.' },
    opportunity_id: { type: ['string', 'null'], format: 'uuid', description: 'The opportunity the conversion created; null when it created none.' },
    opportunity_created: { type: 'boolean', description: 'Whether the conversion created an opportunity (a conversion never attaches an existing one).' },
  },
  required: ['account_id', 'account_created', 'contact_id', 'contact_created', 'opportunity_id', 'opportunity_created'],
} as const

/** What `?q=` matches in this kind, in the words of RecordField.search. */
function qDescription(kind: RecordKind): string {
  const named = (mode: string) => kind.fields.filter((f) => f.search === mode).map((f) => f.name)
  const parts = [
    named('contains').length ? `anywhere in ${named('contains').join(', ')}` : '',
    named('prefix').length ? `at the start of ${named('prefix').join(', ')}` : '',
    named('email').length ? `at the start of ${named('email').join(', ')} or of its domain` : '',
  ].filter(Boolean)
  return `Case-insensitive search: the text ${parts.join('; ')}.`
}
