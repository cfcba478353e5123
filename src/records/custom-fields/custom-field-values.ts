/**
 * Checks the `custom_fields` of a write against the organization's definitions of the kind, with
 * the JSON Schema definition.ts builds (the same one the OpenAPI document, the MCP tools and the
 * browser forms show). Every write path calls this: single create and change, batch items, upsert
 * by src_id, the MCP tools (through those), and the importer for the fields it maps.
 */
import type { ValidateFunction } from 'ajv'
import { fieldErrors, validatorCompiler } from '../../http/validation.ts'
import type { FieldError } from '../../shared/errors.ts'
import { BLANK_MESSAGE, isBlank, settleRequiredText } from '../../shared/required-text.ts'
import { customFieldsSchema, type CustomFieldDefinition } from './definition.ts'

/** Compiled per distinct set of definitions; bounded, and derived only from its key, so no process can hold a stale one. */
const compiled = new Map<string, ValidateFunction>()
const MAX_COMPILED = 500

function validatorFor(defs: readonly CustomFieldDefinition[], mode: 'create' | 'update'): ValidateFunction {
  const schema = customFieldsSchema(defs, mode)
  const key = JSON.stringify(schema)
  let validate = compiled.get(key)
  if (!validate) {
    validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '' }) as unknown as ValidateFunction
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!)
    compiled.set(key, validate)
  }
  return validate
}

/**
 * Problems of `customFields` (absent: `{}`) as `{field: "custom_fields.<name>", message}`. `create`
 * asks for every required field; `update` only checks the keys sent (a required one cannot be null).
 */
export function customFieldErrors(defs: readonly CustomFieldDefinition[], customFields: Record<string, unknown> | undefined, mode: 'create' | 'update'): FieldError[] {
  if (defs.length === 0) return []
  const value = customFields ?? {}
  if (mode === 'update' && customFields === undefined) return []
  const validate = validatorFor(defs, mode)
  const byName = new Map(defs.map((d) => [d.name, d]))
  const errors = validate(value)
    ? []
    : fieldErrors(validate.errors ?? [], 'body').map((e) => {
        const def = byName.get(e.field)
        return { field: `custom_fields.${e.field}`, message: def ? plainMessage(def, value[e.field], e.message) : e.message }
      })
  // The schema's `\S` lets invisible characters through (U+200B alone); the service's rule does not.
  for (const name of requiredTextNames(defs)) {
    const v = value[name]
    const field = `custom_fields.${name}`
    if (typeof v === 'string' && isBlank(v) && !errors.some((e) => e.field === field)) errors.push({ field, message: BLANK_MESSAGE })
  }
  return errors
}

function requiredTextNames(defs: readonly CustomFieldDefinition[]): string[] {
  return defs.filter((d) => d.required && d.type === 'text').map((d) => d.name)
}

/**
 * `custom_fields` as stored, once customFieldErrors found nothing: required text without its
 * surrounding whitespace, as a kind's own required text (shared/required-text.ts). The same object
 * when nothing changes.
 */
export function settledCustomFields<T extends Record<string, unknown> | undefined>(defs: readonly CustomFieldDefinition[], customFields: T): T {
  if (!customFields) return customFields
  return settleRequiredText(requiredTextNames(defs), customFields).values as T
}

const TYPE_WORDS: Record<CustomFieldDefinition['type'], string> = {
  text: 'must be text',
  number: 'must be a number',
  date: 'must be a date (YYYY-MM-DD)',
  boolean: 'must be true or false',
  picklist: 'must be one of the options',
}

const JSON_TYPE: Record<CustomFieldDefinition['type'], string> = { text: 'string', number: 'number', date: 'string', boolean: 'boolean', picklist: 'string' }

/** Ajv's wording where it reads well (lengths, ranges, dates); the field's own words where it does not ("must be number,null"). */
function plainMessage(def: CustomFieldDefinition, value: unknown, ajvMessage: string): string {
  if (value === undefined) return ajvMessage
  if (value === null) return def.required ? 'is required and cannot be cleared' : ajvMessage
  if (typeof value !== JSON_TYPE[def.type]) return TYPE_WORDS[def.type]
  if (def.type === 'picklist') return `must be one of: ${def.options.join(', ')}`
  return ajvMessage
}
