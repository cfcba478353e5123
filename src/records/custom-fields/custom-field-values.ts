/**
 * Checks the `custom_fields` of a write against the organization's definitions of the kind, with
 * the JSON Schema definition.ts builds (the same one the OpenAPI document, the MCP tools and the
 * browser forms show). Every write path calls this: single create and change, batch items, upsert
 * by src_id, the MCP tools (through those), and the importer for the fields it maps.
 */
import type { ValidateFunction } from 'ajv'
import { fieldErrors, validatorCompiler } from '../../http/validation.ts'
import type { FieldError } from '../../shared/errors.ts'
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
  if (validate(value)) return []
  const byName = new Map(defs.map((d) => [d.name, d]))
  return fieldErrors(validate.errors ?? [], 'body').map((e) => {
    const def = byName.get(e.field)
    const message = def?.required && value[e.field] === null ? 'is required and cannot be cleared' : e.message
    return { field: `custom_fields.${e.field}`, message }
  })
}
