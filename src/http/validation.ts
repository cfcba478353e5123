/**
 * Route schemas are the single source of validation. Two Ajv instances: query strings and path
 * parameters arrive as text and are coerced to the schema's types; JSON bodies are not coerced, so
 * `"5"` for an integer is a type error. Unknown properties are never stripped silently: schemas say
 * `additionalProperties: false` and the request gets a 400 naming the field.
 */
import { Ajv, type ErrorObject } from 'ajv'
import addFormatsModule from 'ajv-formats'
import formatsModule from 'ajv-formats/dist/formats.js'
import type { FastifySchemaCompiler } from 'fastify'
import type { FieldError } from '../shared/errors.ts'
import { BLANK_MESSAGE, NOT_BLANK_PATTERN } from '../shared/required-text.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    removeAdditional: false,
    useDefaults: false,
    allErrors: true,
    verbose: true,
    strict: false,
  })
  addFormats(ajv)
  for (const name of ['date', 'date-time'] as const) ajv.addFormat(name, fromYearOne(name))
  // Annotations used only by the OpenAPI document.
  ajv.addKeyword('example')
  return ajv
}

/** 0001-01-01T00:00:00Z: PostgreSQL counts 1 BC before it, and has no year 0. */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z')

/**
 * ajv-formats' `date` and `date-time`, from the year 1 on. RFC 3339's grammar admits the year 0000
 * (and an offset can carry 0001-01-01 back into 1 BC); PostgreSQL refuses the first and would answer
 * the second as a year-1 date without its era. Both used to reach the database from list filters
 * and fail there as 500s; every date an API reads passes through here.
 */
function fromYearOne(name: 'date' | 'date-time') {
  const base = formatsModule.fullFormats[name] as { validate: (s: string) => boolean; compare: (a: string, b: string) => number | undefined }
  return {
    ...base,
    // NaN (a leap second, which Date cannot read) compares false and is left to the base check.
    validate: (s: string) => base.validate(s) && !s.startsWith('0000') && !(Date.parse(s) < FIRST_INSTANT),
  }
}

const bodyAjv = makeAjv(false)
const textAjv = makeAjv(true)

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>
}

/** Turns Ajv's errors into `{field, message}` pairs a person can act on. */
export function fieldErrors(errors: ErrorObject[], part: string): FieldError[] {
  const out: FieldError[] = []
  const seen = new Set<string>()
  for (const e of errors) {
    let field = e.instancePath.replace(/^\//, '').replace(/\//g, '.')
    let message = e.message ?? 'is invalid'
    if (e.keyword === 'additionalProperties') {
      field = [field, (e.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.')
      message = 'is not a known field'
    } else if (e.keyword === 'required') {
      field = [field, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.')
      message = 'is required'
    } else if (e.keyword === 'type' && e.data === null) {
      message = 'cannot be null'
    } else if (e.keyword === 'enum') {
      message = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => (v === null ? 'null' : String(v))).join(', ')}`
    } else if ((e.keyword === 'pattern' || e.keyword === 'minLength') && e.parentSchema?.pattern === NOT_BLANK_PATTERN) {
      // Required text (shared/required-text.ts): "" and "   " are both blank, in the service's words.
      message = BLANK_MESSAGE
    } else if (e.keyword === 'pattern' || e.keyword === 'format') {
      const format = (e.params as { format?: string }).format ?? e.parentSchema?.format
      message = format ? `must be a valid ${format}` : 'has an invalid format'
    }
    if (!field) field = part === 'body' ? '(body)' : `(${part})`
    // One message per field: a value failing its pattern usually fails its format too.
    if (seen.has(field)) continue
    seen.add(field)
    out.push({ field, message })
  }
  return out
}
