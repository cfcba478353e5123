/**
 * What a custom field definition is, and the JSON Schema of its values. Pure data and functions with
 * no server code behind them: the service validates writes with these schemas, the OpenAPI document
 * and the MCP tools list them, and the browser app imports this file to check its forms before it
 * sends anything (docs/custom-fields.md).
 */
import type { KindName, RecordKind } from '../record-kind.ts'
import { notBlankSchema } from '../../shared/required-text.ts'

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'boolean', 'picklist'] as const
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number]

export interface CustomFieldDefinition {
  id: string
  kind: KindName
  /** The key in `custom_fields`: snake_case, unique per kind, never changed. */
  name: string
  label: string
  type: CustomFieldType
  /** Picklists: the allowed values, in display order; empty for other types. */
  options: string[]
  /** Must be present (not null) on create; can never be cleared; text never blank. */
  required: boolean
  created_at: string
  updated_at: string
}

export const CUSTOM_FIELD_NAME_PATTERN = '^[a-z][a-z0-9_]{0,62}$'
export const MAX_DEFINITIONS_PER_KIND = 100
export const MAX_LABEL = 120
export const MAX_OPTIONS = 200
export const MAX_OPTION = 120
export const MAX_TEXT_VALUE = 2000
/** Numbers are JSON numbers within this magnitude (exact in a double up to 2^53). */
export const MAX_NUMBER_VALUE = 1e15

/** Names every record carries besides its kind's fields. */
const RECORD_KEYS = ['id', 'src_id', 'custom_fields', 'created_at', 'updated_at']

/** A custom field may not take the name of a built-in field of its kind (it would read as one). */
export function clashesWithBuiltIn(kind: RecordKind, name: string): boolean {
  return RECORD_KEYS.includes(name) || kind.fields.some((f) => f.name === name)
}

type Schema = Record<string, unknown>

/** One value's schema, not null. */
export function valueSchema(def: Pick<CustomFieldDefinition, 'type' | 'options' | 'label'>): Schema {
  const described = (s: Schema): Schema => ({ description: def.label, ...s })
  switch (def.type) {
    case 'text':
      return described({ type: 'string', maxLength: MAX_TEXT_VALUE })
    case 'number':
      return described({ type: 'number', minimum: -MAX_NUMBER_VALUE, maximum: MAX_NUMBER_VALUE })
    case 'date':
      return described({ type: 'string', format: 'date' })
    case 'boolean':
      return described({ type: 'boolean' })
    case 'picklist':
      return described({ type: 'string', enum: [...def.options] })
  }
}

/** One value's schema where null is allowed (an optional field, or a record as read). */
export function nullableValueSchema(def: Pick<CustomFieldDefinition, 'type' | 'options' | 'label'>): Schema {
  const s = valueSchema(def)
  if (Array.isArray(s.enum)) return { ...s, type: [s.type, 'null'], enum: [...(s.enum as unknown[]), null] }
  return { ...s, type: [s.type, 'null'] }
}

/**
 * The `custom_fields` object of a create (`required` listed) or an update (nothing required, and a
 * required field cannot be cleared with null). Keys without a definition are let through as they
 * are: imports keep source values there (docs/custom-fields.md, "Keys without a definition").
 */
export function customFieldsSchema(defs: readonly CustomFieldDefinition[], mode: 'create' | 'update'): Schema {
  const properties: Record<string, Schema> = {}
  // A required text field is never blank, as a kind's own required text (shared/required-text.ts).
  for (const d of defs) properties[d.name] = d.required ? notBlankSchema(valueSchema(d)) : nullableValueSchema(d)
  const required = mode === 'create' ? defs.filter((d) => d.required).map((d) => d.name) : []
  return {
    type: 'object',
    description: 'Custom fields defined for this kind (Settings -> Fields), plus any other keys kept from imports. In an update, null removes a key.',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: true,
  }
}

/** A definition's name proposed from a label or a source field's name: `Region__c` -> `region`. */
export function suggestedName(text: string): string {
  const base = text
    .replace(/__(c|pc|s)$/i, '')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  const name = /^[a-z]/.test(base) ? base : `f_${base}`
  return name.slice(0, 63).replace(/_+$/, '') || 'field'
}
