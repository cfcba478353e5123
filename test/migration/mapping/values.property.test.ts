/**
 * For any value the source platform could hold in a field, the transformed record is never
 * dropped, the original value is recoverable (written as it was, or kept in custom_fields under the
 * source field's API name), and every value written is one the REST API accepts back (the records
 * layer's own schema), so an imported record can be edited as it is.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mapObjectFields } from '../../../src/migration/mapping/auto-map.ts'
import { compileMapping, transformRecord } from '../../../src/migration/mapping/transform-record.ts'
import type { FieldMapping, SourceDescribe } from '../../../src/migration/migration.types.ts'
import { validatorCompiler } from '../../../src/http/validation.ts'
import { kindsByName } from '../../../src/records/kinds/index.ts'
import type { KindName } from '../../../src/records/record-kind.ts'
import { patchBodySchema } from '../../../src/records/record.schemas.ts'
import { describeFixture, IN_SCOPE } from './fixtures.ts'
import { isBlank } from '../../../src/shared/required-text.ts'

const OBJECTS: Array<[string, KindName]> = [
  ['Account.describe.json', 'account'],
  ['Contact.describe.json', 'contact'],
  ['Lead.describe.json', 'lead'],
  ['Opportunity.describe.json', 'opportunity'],
  ['Case.describe.json', 'case'],
  ['Event.describe.json', 'activity'],
]

/** Addresses the platform's email rule takes that a strict rule may not (the DE sample org holds the first). */
const ODD_EMAILS = ['j.davis@expressl&t.net', 'a&b@x&y.com', "o'brien@example.com", 'user+tag@sub.example.co.uk', 'jörg@bücher.de', 'ünïcode@例え.jp', ' Ann@X.com ', 'a..b@example.com', 'x@-bad-.com']
const ODD_URLS = ['www.example.com', 'example.com/about', 'https://münchen.de/ä?q=1', 'http://[::1]/', 'ftp://files.example.com', 'see brochure', 'https://exa mple.com', 'HTTPS://EXAMPLE.COM', 'https://example.com/a b']
const MIN_DAY = Date.UTC(1700, 0, 1)
const MAX_DAY = Date.UTC(4000, 11, 31)

const text = (max: number) => fc.oneof(fc.string({ maxLength: max }), fc.string({ maxLength: max, unit: 'grapheme' }), fc.string({ maxLength: max, unit: 'binary' }))
const day = fc.integer({ min: MIN_DAY, max: MAX_DAY }).map((t) => new Date(t))
const numberLike = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e18, max: 1e18 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e18, max: 1e18 }).map(String),
  fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }).map(String),
  fc.constantFrom('12.345', '1.005', '-0.001', '99.999', '0.5', '2.5'),
)

/** What the platform could hold in a field of this describe type (REST JSON and Bulk CSV forms). */
function sourceValue(m: FieldMapping): fc.Arbitrary<unknown> {
  const len = Math.min(m.source_length ?? 255, 40_000)
  switch (m.source_type) {
    case 'email':
      return fc.oneof(fc.emailAddress(), fc.constantFrom(...ODD_EMAILS), text(80))
    case 'url':
      return fc.oneof(fc.webUrl(), fc.domain(), fc.constantFrom(...ODD_URLS), text(len))
    case 'picklist':
    case 'combobox':
    case 'multipicklist':
      return fc.oneof(fc.constantFrom(...(m.source_values?.length ? m.source_values : ['x'])), text(len))
    case 'int':
    case 'long':
      return fc.oneof(fc.integer(), fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }).map(String), numberLike)
    case 'double':
    case 'currency':
    case 'percent':
      return numberLike
    case 'date':
      return day.map((d) => d.toISOString().slice(0, 10))
    case 'datetime':
      return fc.oneof(day.map((d) => d.toISOString().replace('Z', '+0000')), day.map((d) => d.toISOString()))
    case 'boolean':
      return fc.constantFrom(true, false, 'true', 'false')
    default:
      return text(len)
  }
}

/** A required field always has a value in the source (it trims and refuses blank text; invisible-only text counts as blank, as in the service). */
function value(m: FieldMapping): fc.Arbitrary<unknown> {
  const v = sourceValue(m)
  if (m.required) return v.filter((x) => x !== null && !isBlank(String(x)))
  return fc.oneof({ weight: 4, arbitrary: v }, { weight: 1, arbitrary: fc.constant(null) })
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || v === ''
}

/** The written value is the source's, in the target's form (a number as exact text, an instant in UTC, "true" as true). */
function sameValue(raw: unknown, written: unknown, m: FieldMapping): boolean {
  if (written === null || written === undefined) return false
  switch (m.transform) {
    case 'integer':
    case 'decimal':
      return Number(raw) === Number(written)
    case 'boolean':
      return String(raw) === String(written)
    case 'datetime':
      return Date.parse(String(raw).replace('+0000', 'Z')) === Date.parse(String(written))
    case 'enum':
      return m.picklist?.values.filter((p) => p.target === written).map((p) => p.source).join('|') === raw
    default:
      return String(raw) === written
  }
}

/** Fields a record rule sets from other fields (an all-day event's times, a converted lead's status). */
const RULE_WRITTEN = new Set(['Lead.Status', 'Event.StartDateTime', 'Event.EndDateTime', 'Event.ActivityDateTime'])

describe('a value the source accepted never drops its record and is never lost', () => {
  for (const [file, kind] of OBJECTS) {
    const d: SourceDescribe = describeFixture(file)
    const mappings = mapObjectFields(d, { inScope: IN_SCOPE, kind }).filter((m) => m.action === 'field' || m.action === 'custom_field')
    const compiled = compileMapping(d.name, mappings, { recordTypes: new Map() })
    const validate = validatorCompiler({ schema: patchBodySchema(kindsByName[kind]), httpPart: 'body', method: 'PATCH', url: '/' })
    const record = fc.record(Object.fromEntries(mappings.map((m) => [m.source, value(m)])))

    it(`${d.name}: imported, originals recoverable, values the API accepts`, () => {
      fc.assert(
        fc.property(record, (values) => {
          const raw: Record<string, unknown> = { Id: `${d.keyPrefix}5g0000000001AAA`, CreatedDate: '2019-01-06T01:45:42.857+0000', ...values }
          const out = transformRecord(compiled, raw)
          if (!out.ok) throw new Error(`dropped: ${out.reason}`)
          const r = out.record
          for (const m of mappings) {
            const v = raw[m.source]
            if (isEmpty(v) || RULE_WRITTEN.has(`${d.name}.${m.source}`)) continue
            const kept = Object.hasOwn(r.custom_fields, m.source)
            if (m.action === 'custom_field') {
              expect(kept, `${m.source} kept`).toBe(true)
              continue
            }
            if (kept) expect(r.custom_fields[m.source], m.source).toEqual(v)
            else expect(sameValue(v, r.fields[m.target!], m), `${m.source} ${JSON.stringify(v)} -> ${JSON.stringify(r.fields[m.target!])}`).toBe(true)
          }
          const props = (patchBodySchema(kindsByName[kind]).properties ?? {}) as Record<string, unknown>
          const body = Object.fromEntries(Object.entries(r.fields).filter(([k]) => k in props))
          const valid = validate({ ...body, custom_fields: r.custom_fields })
          expect(valid, JSON.stringify((validate as unknown as { errors: unknown }).errors)).toBe(true)
        }),
        { numRuns: 300 },
      )
    })
  }
})
