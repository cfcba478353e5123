/**
 * The browser's check of record form bodies (web/src/features/records/schemaCheck.ts) agrees with
 * the server's validator (Ajv, src/http/validation.ts) on the same schemas: for every writable
 * field of every kind, and for custom fields of each type, a body is refused by one exactly when it
 * is refused by the other, and by the same field. So a form never sends what the server refuses on
 * its schema, nor blocks what it accepts. Required text that is blank (whitespace or invisible
 * characters only) is refused by both in the same words, the service's rule past the schema included.
 */
import { describe, expect, it } from 'vitest'
import { fieldErrors, validatorCompiler } from '../../src/http/validation.ts'
import { recordKinds } from '../../src/records/kinds/index.ts'
import { createBodySchema, patchBodySchema } from '../../src/records/record.schemas.ts'
import { customFieldsSchema, type CustomFieldDefinition } from '../../src/records/custom-fields/definition.ts'
import { schemaProblems } from '../../web/src/features/records/schemaCheck.ts'
import { toRowValues } from '../../src/records/record.service.ts'
import { customFieldErrors } from '../../src/records/custom-fields/custom-field-values.ts'
import { ValidationFailed } from '../../src/shared/errors.ts'
import { minimalBodies } from '../helpers/samples.ts'

const VALUES: unknown[] = [
  null, '', 'x', ' ', '\t\n', '\u00a0', '\u3000 ', '  Acme  ', -5, 0, 1, 1.5, 101, 2 ** 40, '5', true, false, 'a'.repeat(300), 'a'.repeat(2001),
  '2026-01-31', '2026-02-30', '2026-13-01', '2026-01-31T10:00:00.000Z', 'yesterday',
  '018f4a2e-7b1c-7d3e-9f00-0123456789ab', 'not-a-uuid', 'https://example.com/a', 'ftp://example.com', 'someone@example.com', 'someone@',
  '1234.50', '12.345', '-7', 'Gold', 'gold', 'prospecting', 'closed_won', 'nope', [], {},
]

const def = (name: string, type: CustomFieldDefinition['type'], extra: Partial<CustomFieldDefinition> = {}): CustomFieldDefinition => ({
  id: name, kind: 'contact', name, label: name, type, options: type === 'picklist' ? ['Gold', 'Silver'] : [], required: false, created_at: '', updated_at: '', ...extra,
})
const DEFS = [def('tier', 'picklist', { required: true }), def('headline', 'text', { required: true }), def('score', 'number'), def('renewal', 'date'), def('vip', 'boolean'), def('note', 'text')]
const CUSTOM = { tier: 'Gold', headline: 'Hello' }

type Schema = Record<string, unknown>
function withCustom(base: Schema, mode: 'create' | 'update'): Schema {
  return { ...base, properties: { ...(base.properties as Schema), custom_fields: customFieldsSchema(DEFS, mode) } }
}

/** Bodies the server refused: the comparison must cover refusals, not only acceptances. */
let refused = 0

function serverFields(schema: Schema, body: unknown): string[] {
  const validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '' }) as unknown as ((v: unknown) => boolean) & { errors?: never[] }
  if (validate(body)) return []
  refused++
  return [...new Set(fieldErrors(validate.errors ?? [], 'body').map((e) => e.field))].sort()
}

function browserFields(schema: Schema, body: Record<string, unknown>): string[] {
  return [...new Set(schemaProblems(schema, body).map((p) => p.field))].sort()
}

describe('the browser check and the server agree', () => {
  for (const kind of recordKinds.filter((k) => k.name !== 'case_comment')) {
    it(`on every writable field of ${kind.labelPlural.toLowerCase()}, creating and changing`, () => {
      const minimal = minimalBodies[kind.name as keyof typeof minimalBodies]
      const create = withCustom(createBodySchema(kind), 'create')
      const update = withCustom(patchBodySchema(kind), 'update')
      const custom = CUSTOM
      refused = 0
      for (const f of kind.fields.filter((x) => !x.readOnly)) {
        for (const value of VALUES) {
          const created = { ...minimal, custom_fields: custom, [f.name]: value }
          expect(browserFields(create, created), `create ${f.name}=${JSON.stringify(value)}`).toEqual(serverFields(create, created))
          const changed = { [f.name]: value }
          expect(browserFields(update, changed), `update ${f.name}=${JSON.stringify(value)}`).toEqual(serverFields(update, changed))
        }
      }
      expect(refused).toBeGreaterThan(kind.fields.length * 10)
    })
  }

  it('on custom fields of every type, and a required one', () => {
    const kind = recordKinds.find((k) => k.name === 'contact')!
    const create = withCustom(createBodySchema(kind), 'create')
    const update = withCustom(patchBodySchema(kind), 'update')
    refused = 0
    for (const d of DEFS) {
      for (const value of VALUES) {
        const created = { last_name: 'Doe', custom_fields: { ...CUSTOM, [d.name]: value } }
        expect(browserFields(create, created), `create ${d.name}=${JSON.stringify(value)}`).toEqual(serverFields(create, created))
        const changed = { custom_fields: { [d.name]: value } }
        expect(browserFields(update, changed), `update ${d.name}=${JSON.stringify(value)}`).toEqual(serverFields(update, changed))
      }
    }
    expect(refused).toBeGreaterThan(DEFS.length * 20)
    const missing = { last_name: 'Doe', custom_fields: {} }
    expect(browserFields(create, missing)).toEqual(['custom_fields.headline', 'custom_fields.tier'])
    expect(serverFields(create, missing)).toEqual(['custom_fields.headline', 'custom_fields.tier'])
  })
})

/** Blank as people and outside checks type it: spaces, tabs and newlines, no-break and ideographic spaces, NEL, and characters that show nothing. */
const BLANKS = ['', ' ', '   ', '\t\n', '\r\n', '\u00a0', '\u3000', '\u2003\u2009', '\u0085', '\u200b', '\u200b\u200c\u200d', '\u2060', '\ufeff', '\u3164', '\u2800', ' \u200b ']

/** The server's words for a body: its schema first, then the write path's own rule (record.service.ts toRowValues, custom-field-values.ts). */
function serverSays(schema: Schema, kindName: string, body: Record<string, unknown>): Array<{ field: string; message: string }> {
  const validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '' }) as unknown as ((v: unknown) => boolean) & { errors?: never[] }
  if (!validate(body)) return fieldErrors(validate.errors ?? [], 'body')
  const kind = recordKinds.find((k) => k.name === kindName)!
  try {
    const values = toRowValues(kind, body)
    return customFieldErrors(DEFS, values.customFields, 'update')
  } catch (err) {
    if (err instanceof ValidationFailed) return err.errors ?? []
    throw err
  }
}

describe('required text that is blank', () => {
  for (const kind of recordKinds.filter((k) => k.name !== 'case_comment')) {
    const required = kind.fields.filter((f) => f.required && !f.readOnly && (f.type === 'string' || f.type === 'text'))
    it(`is refused by the form and the server alike on ${kind.labelPlural.toLowerCase()} (${required.map((f) => f.name).join(', ')})`, () => {
      expect(required.length).toBeGreaterThan(0)
      const minimal = minimalBodies[kind.name as keyof typeof minimalBodies]
      const create = withCustom(createBodySchema(kind), 'create')
      const update = withCustom(patchBodySchema(kind), 'update')
      for (const f of required) {
        for (const blank of BLANKS) {
          for (const [schema, body] of [[create, { ...minimal, custom_fields: CUSTOM, [f.name]: blank }], [update, { [f.name]: blank }]] as const) {
            const label = `${f.name}=${JSON.stringify(blank)}`
            expect(schemaProblems(schema, body), label).toEqual([{ field: f.name, message: 'Cannot be blank' }])
            expect(serverSays(schema, kind.name, body), label).toEqual([{ field: f.name, message: 'cannot be blank' }])
          }
        }
      }
    })
  }

  it('is refused in a required custom text field by the form and the server alike', () => {
    const create = withCustom(createBodySchema(recordKinds.find((k) => k.name === 'contact')!), 'create')
    for (const blank of BLANKS) {
      const body = { last_name: 'Doe', custom_fields: { ...CUSTOM, headline: blank } }
      expect(schemaProblems(create, body), JSON.stringify(blank)).toEqual([{ field: 'custom_fields.headline', message: 'Cannot be blank' }])
      const server = serverSays(create, 'contact', body).map((e) => ({ ...e, field: e.field.replace(/^(custom_fields\.)?/, 'custom_fields.') }))
      expect(server, JSON.stringify(blank)).toEqual([{ field: 'custom_fields.headline', message: 'cannot be blank' }])
    }
  })
})
