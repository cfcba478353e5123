/**
 * Bad request bodies are 400 problems, never 500s, and write nothing (issue 29, item 6): JSON nested
 * deeper than 64 levels (8,000 levels overflowed a recursive walk's stack), JSON and form bodies
 * whose bytes are not UTF-8 (Node read them as U+FFFD, stored without a word), and query strings
 * whose percent-escapes are not UTF-8 (kept as their literal text). /mcp, the OAuth endpoints and CSV
 * uploads answer the same classes in their own formats (test/mcp/mcp-http.test.ts,
 * test/oauth/bad-input.test.ts, test/imports/upload-body.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'

const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))))

describe.each(await targets())('request bodies on %s', (target) => {
  const ctx = appPerFile(target)

  const stored = async (admin: Member) => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM accounts WHERE org_id = ${admin.orgId}`.execute(ctx.app.db)).rows[0]!.n)
  const send = (admin: Member, method: 'POST' | 'PATCH' | 'PUT', url: string, payload: string | Buffer) => admin.request({ method, url, payload, headers: { 'content-type': 'application/json' } })

  it('refuses JSON nested 8,000 and 100,000 levels deep (arrays and objects, anywhere in the body) with 400 nesting_too_deep', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    const account = await createVia(admin, 'account')
    const before = await stored(admin)
    let sent = 0
    for (const levels of [8_000, 100_000]) {
      for (const [shape, deep] of [['arrays', deepArray(levels)], ['objects', deepObject(levels)]] as const) {
        const bodies: Array<['POST' | 'PATCH' | 'PUT', string, string]> = [
          ['POST', '/api/v1/accounts', deep],
          ['POST', '/api/v1/accounts', `{"name":"x","custom_fields":{"deep":${deep}}}`],
          ['POST', '/api/v1/accounts/batch', `{"operation":"create","records":[{"name":"ok"},{"name":"x","custom_fields":{"deep":${deep}}}]}`],
          ['PATCH', `/api/v1/accounts/${account.id}`, `{"custom_fields":{"deep":${deep}}}`],
          ['PUT', '/api/v1/accounts/by-src-id/DEEP-1', `{"name":"x","custom_fields":${deep}}`],
          ['POST', '/api/v1/webhooks', `{"url":"https://93.184.215.14/hook","events":["account.created"],"filter":${deep}}`],
        ]
        for (const [method, url, body] of bodies) {
          sent++
          const res = await send(admin, method, url, body)
          const label = `${method} ${url} with ${shape} ${levels} deep`
          expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBe(400)
          expect(res.headers['content-type'], label).toMatch(/^application\/problem\+json/)
          expect(json(res), label).toMatchObject({ code: 'nesting_too_deep', detail: expect.stringContaining('deeper than 64 levels') })
        }
      }
    }
    expect(sent).toBe(24)
    expect(await stored(admin)).toBe(before)
    const hooks = json(await admin.request({ url: '/api/v1/webhooks' }))
    expect(hooks.data).toEqual([])
  })

  it('takes what is valid: JSON nested exactly 64 levels, brackets and escaped quotes inside strings, any UTF-8', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    // The body is level 1 and custom_fields level 2: 62 arrays more make 64.
    const at64 = await send(admin, 'POST', '/api/v1/accounts', `{"name":"deep","custom_fields":{"x":${deepArray(62)}}}`)
    expect(at64.statusCode, at64.body).toBe(201)
    expect(JSON.stringify(json(at64).custom_fields.x)).toBe(deepArray(62))
    const at65 = await send(admin, 'POST', '/api/v1/accounts', `{"name":"deeper","custom_fields":{"x":${deepArray(63)}}}`)
    expect(json(at65).code).toBe('nesting_too_deep')
    const name = `\\"${'['.repeat(200)}{"\\\\`
    const text = await send(admin, 'POST', '/api/v1/accounts', JSON.stringify({ name, description: '}]'.repeat(500) }))
    expect(text.statusCode, text.body).toBe(201)
    expect(json(text).name).toBe(name)
    // Valid UTF-8 is kept as sent: multi-byte characters (U+FFFD itself too), a byte-order mark before the body.
    const utf8 = await send(admin, 'POST', '/api/v1/accounts', bytes([0xef, 0xbb, 0xbf], '{"name":"Zoë € 😀 \uFFFD"}'))
    expect(utf8.statusCode, utf8.body).toBe(201)
    expect(json(utf8).name).toBe('Zoë € 😀 \uFFFD')
  })

  it.each([
    ['a byte no UTF-8 text has', bytes('{"name":"a', [0xff], 'b"}'), 10],
    ['a continuation byte alone', bytes('{"name":"a', [0x80], '"}'), 10],
    ['an overlong encoding of "/"', bytes('{"name":"a', [0xc0, 0xaf], '"}'), 10],
    ['an encoded lone surrogate (CESU-8)', bytes('{"name":"a', [0xed, 0xa0, 0x80], '"}'), 10],
    ['a sequence cut short', bytes('{"name":"a', [0xe2, 0x82], '"}'), 10],
    ['a code point past U+10FFFF', bytes('{"name":"a', [0xf5, 0x80, 0x80, 0x80], '"}'), 10],
    ['a Latin-1 key', bytes('{"name":"a","custom_fields":{"gr', [0xfc], 'n":1}}'), 32],
  ])('refuses JSON whose bytes hold %s with 400 invalid_encoding, naming where, and writes nothing', async (_label, body, offset) => {
    const admin = await createOrgWithAdmin(ctx.app)
    for (const [method, url] of [['POST', '/api/v1/accounts'], ['PUT', '/api/v1/accounts/by-src-id/UTF-1']] as const) {
      const res = await send(admin, method, url, body)
      expect(res.statusCode, res.body).toBe(400)
      expect(json(res)).toMatchObject({ code: 'invalid_encoding', detail: expect.stringContaining(`not valid UTF-8 (the bytes from offset ${offset} `) })
    }
    expect(await stored(admin)).toBe(0)
  })

  it('refuses a query whose percent-escapes are not UTF-8 with a 400 naming the parameter', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    for (const [url, field] of [['/api/v1/accounts?q=%FF', 'q'], ['/api/v1/search?q=%C3%28', 'q'], ['/api/v1/accounts/count?q=a%ED%A0%80', 'q'], ['/api/v1/search?q=ok&kinds=%FF', 'kinds']]) {
      const res = await admin.request({ url })
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400)
      expect(json(res).errors, url).toEqual([{ field, message: expect.stringContaining('is not valid UTF-8') }])
    }
    const ok = await admin.request({ url: '/api/v1/accounts?q=Zo%C3%AB%20%E2%82%AC' })
    expect(ok.statusCode, ok.body).toBe(200)
  })

  it('refuses a form body whose bytes are not UTF-8 (raw or percent-encoded) with 400 invalid_encoding', async () => {
    for (const payload of [bytes('email=a', [0xff], '%40example.test&password=x'), 'email=a%FF%40example.test&password=x', 'email=a%40example.test&pass%C3%28word=x']) {
      const res = await ctx.app.inject({ method: 'POST', url: '/sign-in', payload, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      expect(res.statusCode, res.body).toBe(400)
      expect(json(res).code).toBe('invalid_encoding')
    }
  })
})
