/**
 * Value converters, one per transform, built once per mapped field by compileMapping and then run
 * for every record. They accept both wire forms of a value: the REST JSON (strings, numbers,
 * booleans, null) and the Bulk API CSV text ("true", "12.5", "" for null). A converter returns the
 * value to write, null for "no value", or INVALID after a warning saying why (the field stays
 * empty). A value the source accepted never fails its record: whatever is left out or written
 * differently (trimmed, cut, rounded, a scheme added) is kept as the source had it, in
 * custom_fields under the source field's API name (fieldStep in transform-record.ts).
 */
import { domainToASCII } from 'node:url'
import type { FieldDef } from '../../records/contracts.ts'
import { isApiEmail, isApiWebUrl } from './api-formats.ts'
import { withoutSurroundingSpace } from '../../shared/required-text.ts'

export const INVALID: unique symbol = Symbol('invalid value')

/** The record being built; converters add warnings and say when they wrote a value differently. */
export interface Work {
  warnings: Array<{ code: string; reason: string; field?: string }>
  /** Set by a converter whose value differs from the source's (not only in form): the original is kept. */
  rewritten: boolean
}

export type Converter = (value: unknown, work: Work) => unknown

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/
const HAS_ZONE = /(?:[zZ]|[+-]\d{2}:?\d{2})$/
const UTC_MILLIS = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}(?:Z|\+0000|\+00:00)$/
/** An ISO instant PostgreSQL and the API both take: years 0001 to 9999 (toISOString writes others as +010000 or 0000). */
const STORABLE_ISO = /^(?!0000)\d{4}-/
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/
const SCHEME = /^https?:\/\//i
const BARE_HOST = /^[^\s/:]+\.[^\s]+$/
const WHITESPACE = /\s/

function asText(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v)
}

/** Cuts to `max` UTF-16 units without splitting a surrogate pair (the database counts code points, never more). */
export function cut(s: string, max: number): string {
  const c = s.charCodeAt(max - 1)
  return c >= 0xd800 && c <= 0xdbff ? s.slice(0, max - 1) : s.slice(0, max)
}

/** A value for a reason text: JSON, cut at 100 characters. */
function quote(v: unknown): string {
  const s = asText(v)
  return JSON.stringify(s.length > 100 ? s.slice(0, 100) + '…' : s)
}

/**
 * Short single-line text is trimmed; long text keeps its whitespace. Over-long values are cut with
 * a warning. Either way the source's text is kept.
 */
export function textConverter(label: string, target: FieldDef | null): Converter {
  const max = target?.maxLength
  const trim = target?.type === 'string'
  return (v, work) => {
    if (v === null || v === undefined) return null
    const original = asText(v)
    // Trimmed as the API trims required text (shared/required-text.ts), U+0085 included.
    let s = trim ? withoutSurroundingSpace(original) : original
    if (max !== undefined && s.length > max) {
      work.warnings.push({ code: 'truncated', field: label, reason: `${label}: ${s.length} characters cut to ${max}; the whole text kept in custom_fields` })
      s = cut(s, max)
    }
    if (s !== original) work.rewritten = true
    return s === '' ? null : s
  }
}

/**
 * The source's email rule is looser than the API's (the Developer-Edition sample org holds
 * `j.davis@expressl&t.net`). An address the API would refuse is left out with a warning and kept in
 * custom_fields, like an unusable URL; the record imports. An internationalised domain is written
 * in its ASCII (punycode) form, which the API takes.
 */
export function emailConverter(label: string, target: FieldDef | null): Converter {
  const max = target?.maxLength ?? 320
  return (v, work) => {
    if (v === null || v === undefined) return null
    const original = asText(v)
    let s = original.trim()
    if (s === '') {
      if (original !== '') work.rewritten = true
      return null
    }
    if (!isApiEmail(s)) s = withAsciiDomain(s)
    if (s.length > max || !isApiEmail(s)) {
      work.warnings.push({ code: 'invalid_email', field: label, reason: `${label}: ${quote(v)} is not an email address the service accepts; kept in custom_fields` })
      return INVALID
    }
    if (s !== original) work.rewritten = true
    return s
  }
}

function withAsciiDomain(address: string): string {
  const at = address.lastIndexOf('@')
  if (at < 1) return address
  const domain = domainToASCII(address.slice(at + 1))
  return domain === '' ? address : address.slice(0, at + 1) + domain
}

/**
 * Website values are free text in the source: "www.acme.com" gets `https://`, and an address the
 * API's format refuses (a non-ASCII host, a space in the path, `HTTPS:`) is written as the URL
 * standard serialises it. Anything still not an http(s) URL is left out with a warning. The
 * source's value is kept whenever it is not written as it was.
 */
export function urlConverter(label: string, target: FieldDef | null): Converter {
  const max = target?.maxLength ?? 2000
  return (v, work) => {
    if (v === null || v === undefined) return null
    const original = asText(v)
    let s = original.trim()
    if (s === '') {
      if (original !== '') work.rewritten = true
      return null
    }
    if (!SCHEME.test(s) && BARE_HOST.test(s)) s = 'https://' + s
    if (!isApiWebUrl(s) && SCHEME.test(s) && !WHITESPACE.test(s) && URL.canParse(s)) s = new URL(s).href
    if (s.length > max || !isApiWebUrl(s)) {
      work.warnings.push({ code: 'invalid_url', field: label, reason: `${label}: ${quote(v)} is not a web address; kept in custom_fields` })
      return INVALID
    }
    if (s !== original) work.rewritten = true
    return s
  }
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v
  if (typeof v === 'string') {
    const s = v.trim()
    return s === '' ? NaN : Number(s)
  }
  return NaN
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || v === ''
}

export function integerConverter(label: string, target: FieldDef | null): Converter {
  const min = target?.min ?? -2147483648
  const max = target?.max ?? 2147483647
  return (v, work) => {
    if (isEmpty(v)) return null
    const n = toNumber(v)
    if (!Number.isFinite(n)) {
      work.warnings.push({ code: 'invalid_number', field: label, reason: `${label}: ${JSON.stringify(v)} is not a number; kept in custom_fields` })
      return INVALID
    }
    const r = Math.round(n)
    if (r < min || r > max) {
      work.warnings.push({ code: 'out_of_range', field: label, reason: `${label}: ${n} is outside ${min}..${max}; kept in custom_fields` })
      return INVALID
    }
    if (r !== n) work.rewritten = true
    return r
  }
}

/**
 * Exact decimal text with 2 fraction digits, rounded half away from zero on the decimal digits as
 * written (so "1.005" is 1.01, which binary floating point would get wrong). The target column is
 * numeric(18,2): at most 16 integer digits.
 */
export function formatDecimal(v: unknown): string | null {
  return roundDecimal(v)?.text ?? null
}

/** formatDecimal, and whether digits were rounded away (then the source's value is kept). */
function roundDecimal(v: unknown): { text: string; rounded: boolean } | null {
  let text: string
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null
    text = String(v)
    if (text.includes('e')) text = Math.abs(v) < 1 ? v.toFixed(20) : BigInt(Math.round(v)).toString()
  } else if (typeof v === 'string') text = v.trim()
  else return null
  const m = DECIMAL.exec(text)
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null
  const negative = m[1] === '-'
  let int = m[2].replace(/^0+(?=\d)/, '') || '0'
  let frac = m[3] ?? ''
  // Digits past the cents, or a number too small for toFixed(20) to show (5e-324).
  const rounded = /[1-9]/.test(frac.slice(2)) || (typeof v === 'number' && v !== 0 && !/[1-9]/.test(text))
  if (frac.length > 2) {
    const up = frac.charCodeAt(2) >= 53 // '5'
    frac = frac.slice(0, 2)
    if (up) {
      const cents = BigInt(int + frac) + 1n
      const digits = cents.toString().padStart(3, '0')
      int = digits.slice(0, -2)
      frac = digits.slice(-2)
    }
  }
  frac = frac.padEnd(2, '0')
  if (int.length > 16) return null
  const zero = int === '0' && frac === '00'
  return { text: (negative && !zero ? '-' : '') + int + '.' + frac, rounded }
}

export function decimalConverter(label: string): Converter {
  return (v, work) => {
    if (isEmpty(v)) return null
    const d = roundDecimal(v)
    if (d === null) {
      work.warnings.push({ code: 'invalid_number', field: label, reason: `${label}: ${JSON.stringify(v)} is not a number the service can hold; kept in custom_fields` })
      return INVALID
    }
    if (d.rounded) work.rewritten = true
    return d.text
  }
}

export function parseBoolean(v: unknown): boolean | null | typeof INVALID {
  if (v === true || v === false) return v
  if (isEmpty(v)) return null
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase()
    if (s === 'true' || s === '1') return true
    if (s === 'false' || s === '0') return false
  }
  if (v === 1) return true
  if (v === 0) return false
  return INVALID
}

export function booleanConverter(label: string): Converter {
  return (v, work) => {
    const b = parseBoolean(v)
    if (b === INVALID) work.warnings.push({ code: 'invalid_boolean', field: label, reason: `${label}: ${JSON.stringify(v)} is not true or false; kept in custom_fields` })
    return b
  }
}

/** YYYY-MM-DD that names a real day (the platform's parser would turn 2019-02-30 into March 2nd). */
function isDate(s: string): boolean {
  if (!DATE.test(s) || s.startsWith('0000')) return false
  const day = Number(s.slice(8, 10))
  if (day <= 28) return true
  const month = Number(s.slice(5, 7))
  const year = Number(s.slice(0, 4))
  const days = month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31
  return day <= days
}

/** RFC 3339 UTC with milliseconds; REST gives "…+0000", Bulk CSV "…Z", a date alone means midnight UTC. */
export function parseDateTime(v: unknown): string | null {
  if (typeof v !== 'string') return null
  // The platform's own form, already UTC: no Date round trip (this runs for every record).
  if (UTC_MILLIS.test(v) && isDate(v.slice(0, 10))) return v.length === 24 ? v : v.slice(0, 23) + 'Z'
  const s = v.trim()
  if (!isDate(s.slice(0, 10))) return null
  if (s.length === 10) return s + 'T00:00:00.000Z'
  const t = Date.parse(HAS_ZONE.test(s) ? s : s + 'Z')
  if (Number.isNaN(t)) return null
  const iso = new Date(t).toISOString()
  return STORABLE_ISO.test(iso) ? iso : null
}

export function dateTimeConverter(label: string): Converter {
  return (v, work) => {
    if (isEmpty(v)) return null
    const d = parseDateTime(v)
    if (d === null) {
      work.warnings.push({ code: 'invalid_date', field: label, reason: `${label}: ${JSON.stringify(v)} is not a date and time; kept in custom_fields` })
      return INVALID
    }
    return d
  }
}

export function dateConverter(label: string): Converter {
  return (v, work) => {
    if (isEmpty(v)) return null
    if (typeof v === 'string' && v.length === 10 && isDate(v)) return v
    const d = parseDateTime(v)
    if (d === null) {
      work.warnings.push({ code: 'invalid_date', field: label, reason: `${label}: ${JSON.stringify(v)} is not a date; kept in custom_fields` })
      return INVALID
    }
    // A date and time (or a padded date) written as a date: the source's value is kept.
    work.rewritten = true
    return d.slice(0, 10)
  }
}

// --- custom_fields: keep the value as JSON of its own type; never drop it for being odd ---------

export function customConverter(transform: string): (v: unknown) => unknown {
  switch (transform) {
    case 'boolean':
      return (v) => {
        const b = parseBoolean(v)
        return b === INVALID ? v : b
      }
    case 'integer':
    case 'decimal':
      return (v) => {
        if (isEmpty(v)) return null
        const n = toNumber(v)
        return Number.isFinite(n) ? n : v
      }
    case 'datetime':
      return (v) => (isEmpty(v) ? null : (parseDateTime(v) ?? v))
    case 'multipicklist':
      return (v) => {
        if (isEmpty(v)) return null
        return typeof v === 'string' ? v.split(';').filter((x) => x !== '') : v
      }
    default:
      return (v) => (isEmpty(v) ? null : v)
  }
}
