// Checks a request body in the browser against the JSON Schema the server validates it with (the
// kind's create/update schema from src/records, with the organization's custom fields), so a form
// shows field errors before anything is sent. The app's content security policy forbids generated
// code (no 'unsafe-eval'), so this interprets the keywords those schemas use instead of compiling
// them; a keyword it does not know is left to the server, whose errors the form maps back to fields.
import { BLANK_MESSAGE, isBlank, NOT_BLANK_PATTERN } from '../../../../src/web-contracts.ts'

type Schema = Record<string, unknown>

const BLANK_TEXT = BLANK_MESSAGE.charAt(0).toUpperCase() + BLANK_MESSAGE.slice(1)

export interface SchemaProblem {
  /** `name` or `custom_fields.name`, as the server names fields. */
  field: string
  message: string
}

const FORMATS: Record<string, { test: (s: string) => boolean; message: string }> = {
  date: { test: validDate, message: 'Enter a valid date (YYYY-MM-DD)' },
  'date-time': { test: (s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s), message: 'Enter a valid date and time' },
  email: { test: (s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), message: 'Enter a valid email address' },
  uri: { test: (s) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(s), message: 'Enter a valid URL' },
  uuid: { test: (s) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s), message: 'Choose a valid record' },
}

function validDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s
}

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

function typeMatches(wanted: string, actual: string): boolean {
  return wanted === actual || (wanted === 'number' && actual === 'integer')
}

const TYPE_MESSAGES: Record<string, string> = {
  integer: 'Enter a whole number',
  number: 'Enter a number',
  string: 'Enter text',
  boolean: 'Choose yes or no',
  object: 'Must be an object',
}

/** The first problem of one value, or null. */
function valueProblem(schema: Schema, value: unknown): string | null {
  if (Array.isArray(schema.anyOf)) {
    const fits = (schema.anyOf as Schema[]).some((s) => valueProblem(s, value) === null)
    return fits ? null : typeof schema.description === 'string' ? schema.description : 'Enter a valid value'
  }
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]
  const actual = typeOf(value)
  if (types.length > 0 && !types.some((t) => typeMatches(t, actual))) {
    if (value === null) return 'Required'
    return TYPE_MESSAGES[types.find((t) => t !== 'null') ?? ''] ?? 'Enter a valid value'
  }
  if (value === null) return null
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    return `Choose one of: ${(schema.enum as unknown[]).filter((v) => v !== null).join(', ')}`
  }
  if (typeof value === 'string') {
    // Required text: blank (whitespace or invisible characters only) in the service's own words.
    if (schema.pattern === NOT_BLANK_PATTERN && isBlank(value)) return BLANK_TEXT
    if (typeof schema.maxLength === 'number' && [...value].length > schema.maxLength) return `Enter at most ${schema.maxLength} characters`
    if (typeof schema.minLength === 'number' && [...value].length < schema.minLength) return schema.minLength === 1 ? 'Required' : `Enter at least ${schema.minLength} characters`
    const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined
    if (format && !format.test(value)) return format.message
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return 'Has an invalid format'
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return `Must be at least ${schema.minimum.toLocaleString()}`
    if (typeof schema.maximum === 'number' && value > schema.maximum) return `Must be at most ${schema.maximum.toLocaleString()}`
  }
  return null
}

/**
 * Every problem of an object body: missing required properties, unknown ones where the schema
 * forbids them, and each property's value; nested objects (custom_fields) name their fields
 * `parent.name`.
 */
export function schemaProblems(schema: Schema, body: Record<string, unknown>, prefix = ''): SchemaProblem[] {
  const problems: SchemaProblem[] = []
  const properties = (schema.properties ?? {}) as Record<string, Schema>
  for (const name of (schema.required ?? []) as string[]) {
    if (body[name] === undefined) problems.push({ field: `${prefix}${name}`, message: 'Required' })
  }
  for (const [name, value] of Object.entries(body)) {
    const property = properties[name]
    if (!property) {
      if (schema.additionalProperties === false) problems.push({ field: `${prefix}${name}`, message: 'Is not a known field' })
      continue
    }
    if (property.type === 'object' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      problems.push(...schemaProblems(property, value as Record<string, unknown>, `${prefix}${name}.`))
      continue
    }
    const problem = valueProblem(property, value)
    if (problem) problems.push({ field: `${prefix}${name}`, message: problem })
  }
  return problems
}
