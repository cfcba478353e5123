/**
 * Every operation of the OpenAPI document, given edge values where it reads input: each property of
 * its body (and of a batch's first item) and each query parameter in turn takes each value below,
 * the rest of the request staying valid. No answer is a 5xx, and every 4xx is a problem. Values
 * the database cannot hold (an integer past its column, the year 0000, null in a column with a
 * default) were 500s until the schemas refused them; the named cases keep those answers exact.
 * Each body is also sent as bytes no JSON encoder makes: cut short, not UTF-8, nested 100,000 levels
 * deep (a recursive walk overflowed the stack and answered 500 from 8,000 levels on).
 */
import { describe, expect, it } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia, topLevelKinds } from '../helpers/samples.ts'
import { kindsByName } from '../../src/records/kinds/index.ts'

/** Arrays nested `levels` deep, and objects: past the 64 levels a body may nest, and just under. */
const nested = (levels: number, shape: 'array' | 'object'): unknown => JSON.parse(shape === 'array' ? `${'['.repeat(levels)}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`)

const EDGE_VALUES: unknown[] = [
  '', ' ', '\u0000', 'x'.repeat(5000), '9'.repeat(400), '-1', '1e400', 'NaN', '2026-02-30', '0000-01-01', '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+14:00', '9999-12-31T23:59:59-14:00', '%00', 0, -1, 1e308, -1e308, 2 ** 53 + 1, 1.5, -0, true, null, [], [null], {},
  { a: { b: { c: {} } } }, 'https://127.0.0.1/x', '0190d6f0-0000-7000-8000-000000000000', '\ud800', '\uFFFD',
  // (Deeper values go as raw text below: the client's own JSON.stringify overflows past a few thousand.)
  nested(100, 'array'), nested(100, 'object'), nested(55, 'array'), nested(55, 'object'),
]
/** Query strings carry text only. */
const EDGE_TEXTS = EDGE_VALUES.filter((v) => typeof v === 'number' || (typeof v === 'string' && v.isWellFormed())).map(String)
/** Percent-escapes of bytes that are not UTF-8 (a byte no UTF-8 text has, an encoded surrogate, a sequence cut short), sent as they are. */
const RAW_QUERY_VALUES = ['%FF%FE', '%ED%A0%80', 'a%E2%82']

type Schema = Record<string, any>

function resolve(doc: Schema, s: Schema | undefined): Schema | undefined {
  while (s?.$ref) s = (s.$ref as string).split('/').slice(1).reduce((o: Schema, k: string) => o[k], doc)
  return s
}

/** A value the schema accepts, as plain as it gets (the edge values then replace one property at a time). */
function plainValue(doc: Schema, schema: Schema | undefined, depth = 0): unknown {
  const s = resolve(doc, schema)
  if (!s || depth > 4) return null
  if (s.anyOf || s.oneOf) return plainValue(doc, (s.anyOf ?? s.oneOf)[0], depth + 1)
  if (s.enum) return s.enum[0]
  if (s.const !== undefined) return s.const
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type
  if (type === 'object' || s.properties) return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, plainValue(doc, v as Schema, depth + 1)]))
  if (type === 'array') return [plainValue(doc, s.items, depth + 1)]
  if (type === 'integer' || type === 'number') return s.minimum ?? 1
  if (type === 'boolean') return true
  const byFormat: Record<string, string> = { uuid: '0190d6f0-0000-7000-8000-000000000000', date: '2026-01-01', 'date-time': '2026-01-01T00:00:00Z', uri: 'https://93.184.215.14/hook', email: 'a@example.test' }
  return byFormat[s.format] ?? 'x'
}

function expectNoServerError(res: LightMyRequestResponse, label: string): void {
  expect(res.statusCode, `${label}: ${res.body.slice(0, 300)}`).toBeLessThan(500)
  if (res.statusCode >= 400) expect(res.headers['content-type'], label).toMatch(/^application\/problem\+json/)
}

describe.each(await targets())('edge values on every operation on %s', (target) => {
  const ctx = appPerFile(target)

  it('never answer a 5xx', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    const doc = (await ctx.app.inject({ url: '/api/v1/openapi.json' })).json()
    const ids = new Map<string, string>()
    for (const kind of topLevelKinds) ids.set(kindsByName[kind].path, (await createVia(admin, kind)).id)
    const idFor = (path: string) => ids.get(path.split('/')[3]!) ?? ids.get('cases')!
    let sent = 0
    for (const [path, operations] of Object.entries<Schema>(doc.paths)) {
      // The change stream stays open until the client leaves (test/events covers it).
      if (path.endsWith('/events/stream')) continue
      const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'src_id' ? 'EDGE-1' : idFor(path)))
      for (const [method, op] of Object.entries<Schema>(operations)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
        const body = op.requestBody ? plainValue(doc, op.requestBody.content?.['application/json']?.schema) : undefined
        const variants: Array<{ url: string; body?: unknown }> = []
        if (body && typeof body === 'object' && !Array.isArray(body)) {
          const record = body as Record<string, unknown>
          for (const key of Object.keys(record)) for (const value of EDGE_VALUES) variants.push({ url, body: { ...record, [key]: value } })
          const items = record.records as Array<Record<string, unknown>> | undefined
          if (items?.[0]) for (const key of Object.keys(items[0])) for (const value of EDGE_VALUES) variants.push({ url, body: { ...record, records: [{ ...items[0], [key]: value }] } })
        }
        for (const p of op.parameters ?? []) {
          if (p.in !== 'query') continue
          for (const text of EDGE_TEXTS) variants.push({ url: `${url}?${encodeURIComponent(p.name)}=${encodeURIComponent(text)}`, body })
          for (const raw of RAW_QUERY_VALUES) variants.push({ url: `${url}?${encodeURIComponent(p.name)}=${raw}`, body })
        }
        for (const v of variants) {
          sent++
          const res = await admin.request({ method: method.toUpperCase() as 'GET', url: v.url, payload: v.body as object | undefined })
          expectNoServerError(res, `${method.toUpperCase()} ${v.url.slice(0, 160)} ${JSON.stringify(v.body)?.slice(0, 200)}`)
        }
        // The body as bytes a JSON encoder would never send: cut short, holding bytes that are not
        // UTF-8 (in a value, in a key), nested 100,000 levels deep, or a form where JSON belongs.
        if (body !== undefined) {
          const text = JSON.stringify(body)
          const quote = text.indexOf('"')
          const raw: Array<[string, Buffer]> = [
            ['cut short', Buffer.from(text.slice(0, Math.ceil(text.length / 2)))],
            ['cut after one byte', Buffer.from(text.slice(0, 1))],
            ['0xFF in a string', Buffer.concat([Buffer.from(text.slice(0, quote + 1)), Buffer.from([0xff]), Buffer.from(text.slice(quote + 1))])],
            ['an encoded surrogate', Buffer.concat([Buffer.from(text.slice(0, quote + 1)), Buffer.from([0xed, 0xb0, 0x80]), Buffer.from(text.slice(quote + 1))])],
            ['arrays 100,000 deep', Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)],
            ['objects 100,000 deep', Buffer.from(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`)],
          ]
          for (const [label, payload] of raw) {
            sent++
            const res = await admin.request({ method: method.toUpperCase() as 'POST', url, payload, headers: { 'content-type': 'application/json' } })
            expectNoServerError(res, `${method.toUpperCase()} ${url} with a body ${label}`)
            if (label !== 'cut short' || text.length > 2) expect(res.statusCode, `${method.toUpperCase()} ${url} with a body ${label}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400)
          }
          const form = await admin.request({ method: method.toUpperCase() as 'POST', url, payload: Buffer.from([0x61, 0x3d, 0xff]), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
          expectNoServerError(form, `${method.toUpperCase()} ${url} with a form body`)
        }
      }
    }
    // The sweep reached every operation's inputs, not a handful.
    expect(sent).toBeGreaterThan(10_000)
  }, 300_000)

  describe('values the database cannot hold are refused by the schemas', () => {
    let admin: Member
    const field = (res: LightMyRequestResponse) => json(res).errors?.map((e: { field: string; message: string }) => `${e.field} ${e.message}`)

    it('null for a field with a default, on create, update and in a batch', async () => {
      admin = await createOrgWithAdmin(ctx.app)
      const created = await admin.request({ method: 'POST', url: '/api/v1/cases', payload: { subject: 'x', status: null } })
      expect(created.statusCode).toBe(400)
      expect(field(created)).toEqual(['status cannot be null'])
      const kase = await createVia(admin, 'case')
      const patched = await admin.request({ method: 'PATCH', url: `/api/v1/cases/${kase.id}`, payload: { priority: null } })
      expect(field(patched)).toEqual(['priority cannot be null'])
      const batch = await admin.request({ method: 'POST', url: '/api/v1/opportunities/batch', payload: { operation: 'create', records: [{ name: 'a' }, { name: 'b', currency: null }] } })
      expect(batch.statusCode).toBe(400)
      expect(JSON.stringify(json(batch).errors)).toContain('records[1].currency')
      // Omitted, the default applies; the record it left unchanged is as it was.
      expect((await createVia(admin, 'case')).status).toBe('new')
      expect(json(await admin.request({ method: 'GET', url: `/api/v1/cases/${kase.id}` })).priority).toBe(kase.priority)
    })

    it.each([
      ['/api/v1/opportunities?probability[gte]=1e308', 'probability[gte]'],
      ['/api/v1/accounts/count?employee_count[lt]=2147483648', 'employee_count[lt]'],
      ['/api/v1/cases/export.csv?case_number[gt]=-2147483649', 'case_number[gt]'],
      ['/api/v1/opportunities?close_date[lte]=0000-01-01', 'close_date[lte]'],
      ['/api/v1/accounts?created_at[gte]=0000-12-31T23:00:00-02:00', 'created_at[gte]'],
      ['/api/v1/accounts?updated_since=0001-01-01T00:00:00%2B01:00', 'updated_since'],
      ['/api/v1/accounts/deleted?deleted_since=0000-06-01T00:00:00Z', 'deleted_since'],
    ])('%s answers 400 naming %s', async (url, name) => {
      admin = await createOrgWithAdmin(ctx.app)
      const res = await admin.request({ method: 'GET', url })
      expect(res.statusCode, res.body).toBe(400)
      expect(json(res).errors.map((e: { field: string }) => e.field)).toContain(name)
    })

    it('keeps the edges that are valid: the last day of 9999, the first instant of the year 1', async () => {
      admin = await createOrgWithAdmin(ctx.app)
      const task = await createVia(admin, 'activity', { due_date: '9999-12-31' })
      expect(task.due_date).toBe('9999-12-31')
      const ok = await admin.request({ method: 'GET', url: '/api/v1/opportunities?created_at[gte]=0001-01-01T00:00:00Z&probability[lte]=2147483647' })
      expect(ok.statusCode, ok.body).toBe(200)
    })
  })
})
