// Custom field values between the API and form inputs. Nothing is changed silently: an input the
// type cannot hold (text in a number) is sent to the check as typed, which flags it, and an empty
// input means "no value" (null), never 0 or false.
import type { CustomField } from '../../api/customFields.ts'
import type { FormValue } from './FormField.tsx'

/** Number text as typed: digits with an optional sign, decimals and thousands commas ("-1,250.5"). */
const NUMBER_TEXT = /^-?(\d{1,3}(,\d{3})*|\d+)(\.\d+)?$/

export function customToFormValue(def: CustomField, value: unknown): FormValue {
  if (value === null || value === undefined) return ''
  if (def.type === 'boolean') return value === true ? 'true' : value === false ? 'false' : String(value)
  if (def.type === 'number' && typeof value === 'number') return value
  // A value stored before the definition (an object kept from an import) reads as its JSON.
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

export function customFromFormValue(def: CustomField, value: FormValue): unknown {
  if (value === '' || value === undefined || value === null) return null
  switch (def.type) {
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value
    case 'number':
      if (typeof value === 'number') return value
      return NUMBER_TEXT.test(String(value).trim()) ? Number(String(value).trim().replace(/,/g, '')) : String(value)
    default:
      return String(value)
  }
}

export function initialCustomValues(defs: readonly CustomField[], stored: Record<string, unknown> | null | undefined): Record<string, FormValue> {
  return Object.fromEntries(defs.map((d) => [d.name, customToFormValue(d, stored?.[d.name])]))
}

/**
 * The `custom_fields` of a create (every value given) or an edit (only the changed ones; null
 * removes a value). Undefined when there is nothing to send; a create always sends the object when
 * a field is required, so the check can say it is missing.
 */
export function customFieldsBody(defs: readonly CustomField[], values: Record<string, FormValue>, stored: Record<string, unknown> | null | undefined, creating: boolean): Record<string, unknown> | undefined {
  const body: Record<string, unknown> = {}
  for (const d of defs) {
    const v = customFromFormValue(d, values[d.name] ?? '')
    if (creating) {
      if (v !== null) body[d.name] = v
    } else if (v !== (stored?.[d.name] ?? null)) body[d.name] = v
  }
  if (Object.keys(body).length > 0) return body
  return creating && defs.some((d) => d.required) ? {} : undefined
}
