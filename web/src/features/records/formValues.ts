// Converts between API values and form input values, and builds create and patch bodies.
import type { CrmRecord, FieldDef } from '../../kinds.ts'
import type { FormValue } from './FormField.tsx'

const pad = (n: number) => String(n).padStart(2, '0')

function isoToLocalInput(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

export function toFormValue(field: FieldDef, value: unknown, creating: boolean): FormValue {
  const v = value === null || value === undefined ? (creating ? field.default : undefined) : value
  if (field.type === 'boolean') return Boolean(v)
  if (v === undefined || v === null) return ''
  if (field.type === 'datetime') return isoToLocalInput(String(v))
  if (field.type === 'integer') return typeof v === 'number' ? v : String(v)
  return String(v)
}

/** The API value of a form input: null when empty. */
export function fromFormValue(field: FieldDef, value: FormValue): unknown {
  if (field.type === 'boolean') return Boolean(value)
  if (value === '' || value === undefined || value === null) return null
  if (field.type === 'integer') {
    if (typeof value === 'number') return value
    // Only whole-number text becomes a number ("1,200" too); anything else goes to the check as typed.
    const text = String(value).trim()
    return /^-?\d{1,3}(,\d{3})*$|^-?\d+$/.test(text) ? Number(text.replace(/,/g, '')) : String(value)
  }
  if (field.type === 'datetime') {
    const d = new Date(String(value))
    return Number.isNaN(d.getTime()) ? String(value) : d.toISOString()
  }
  if (field.type === 'decimal') return String(value).trim().replace(/,/g, '')
  if (typeof value !== 'string' || field.type === 'text') return value
  // Spaces alone are no value, except in a required field: sent to the check as typed, which says
  // "Cannot be blank" as the API does (src/shared/required-text.ts).
  return value.trim() || (field.required ? value : null)
}

export function initialValues(fields: FieldDef[], record: CrmRecord | undefined): Record<string, FormValue> {
  return Object.fromEntries(fields.map((f) => [f.name, toFormValue(f, record?.[f.name], !record)]))
}

function same(field: FieldDef, a: unknown, b: unknown): boolean {
  const x = a === undefined ? null : a
  const y = b === undefined ? null : b
  if (x === null || y === null) return x === y
  if (field.type === 'datetime') return new Date(String(x)).getTime() === new Date(String(y)).getTime()
  if (field.type === 'decimal') return Number(x) === Number(y)
  return x === y
}

/** Create: every non-empty value. Edit: only the fields that changed (null clears). */
export function requestBody(fields: FieldDef[], values: Record<string, FormValue>, record: CrmRecord | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const f of fields) {
    const v = fromFormValue(f, values[f.name]!)
    if (!record) {
      if (v !== null) body[f.name] = v
    } else if (!same(f, v, record[f.name])) body[f.name] = v
  }
  return body
}
