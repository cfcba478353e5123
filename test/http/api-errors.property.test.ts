/**
 * Every 4xx under /api/v1 is an RFC 9457 problem with a stable code, and nothing a client sends
 * produces a 5xx: checked over a real socket, so Node's parser, Fastify's router and the CORS plugin
 * all answer for themselves, with hand-picked cases and random requests (bodies nested too deep, not
 * UTF-8 or cut short among them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'
import { buildTestApp, createOrgWithAdmin, type Member } from '../helpers/build-app.ts'
import { SESSION_COOKIE } from '../../src/orgs/session.service.ts'
import { rawRequest, requestText, type RawAnswer } from './raw-http.ts'

function expectProblem(answer: RawAnswer, label: string): void {
  expect(answer.status, label).toBeGreaterThanOrEqual(100)
  expect(answer.status, `${label}: ${answer.body}`).toBeLessThan(500)
  if (answer.status < 400) return
  expect(answer.headers['content-type'], `${label}: ${answer.body}`).toMatch(/^application\/problem\+json/)
  const body = JSON.parse(answer.body)
  expect(body.status, label).toBe(answer.status)
  expect(body.code, label).toMatch(/^[a-z][a-z_]*[a-z]$/)
  expect(typeof body.title, label).toBe('string')
  expect(typeof body.detail, label).toBe('string')
}

/**
 * Bodies no encoder makes (issue 29, item 6): nested past the 64 levels a body may have (a recursive
 * walk answered 500 from 8,000 on), bytes that are not UTF-8, JSON or multipart cut short.
 */
const nestedText = (levels: number, shape: 'array' | 'object') => (shape === 'array' ? `${'['.repeat(levels)}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`)
const badBody = fc.oneof(
  fc.tuple(fc.integer({ min: 60, max: 3000 }), fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>).map(([levels, shape]) => Buffer.from(nestedText(levels, shape))),
  fc.tuple(fc.json({ maxDepth: 2 }), fc.uint8Array({ minLength: 1, maxLength: 4 })).map(([json, junk]) => Buffer.concat([Buffer.from(json.slice(0, Math.ceil(json.length / 2))), Buffer.from(junk.map((b) => b | 0x80)), Buffer.from(json.slice(Math.ceil(json.length / 2)))])),
  fc.json({ maxDepth: 3 }).map((json) => Buffer.from(json.slice(0, Math.floor(json.length / 2)))),
  fc.constant(Buffer.from('--x\r\nContent-Disposition: form-data; name="kind"\r\n\r\naccounts\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nname\r\n')),
)

describe.each(await targets())('client errors under /api/v1 on %s', (target) => {
  let tdb: TestDatabase
  let app: FastifyInstance
  let port: number
  let admin: Member
  let auth: Record<string, string>

  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    app = await buildTestApp(tdb.database, { BODY_LIMIT_BYTES: '4096' })
    await app.listen({ port: 0, host: '127.0.0.1' })
    port = (app.server.address() as { port: number }).port
    admin = await createOrgWithAdmin(app)
    auth = { cookie: `${SESSION_COOKIE}=${admin.session}`, 'x-csrf-token': admin.csrf }
  })
  afterAll(async () => {
    await app?.close()
    await tdb?.drop()
  })

  const send = (method: string, path: string, headers: Record<string, string> = {}, body = '') => rawRequest(port, requestText(method, path, headers, body))
  /** As send, with a body of any bytes (not UTF-8, say) and its length. */
  const sendBytes = (method: string, path: string, headers: Record<string, string>, body: Buffer) =>
    rawRequest(port, Buffer.concat([Buffer.from(requestText(method, path, body.length > 0 ? { ...headers, 'content-length': String(body.length) } : headers)), body]))

  it.each([
    ['preflight without Origin', 'OPTIONS', '/api/v1/accounts', { 'access-control-request-method': 'POST' }, 400, 'invalid_preflight'],
    ['preflight without the method', 'OPTIONS', '/api/v1/accounts', { origin: 'https://app.example' }, 400, 'invalid_preflight'],
    ['bare OPTIONS', 'OPTIONS', '/api/v1/contacts/123', {}, 400, 'invalid_preflight'],
    ['path not valid percent-encoding', 'GET', '/api/v1/accounts/%zz', {}, 400, 'invalid_path'],
    ['path parameter too long', 'GET', `/api/v1/accounts/${'a'.repeat(300)}`, {}, 414, 'uri_too_long'],
    ['unknown route', 'GET', '/api/v1/nothing-here', {}, 404, 'not_found'],
    ['no credentials', 'GET', '/api/v1/accounts', {}, 401, 'unauthenticated'],
  ] as const)('%s: %s %s answers a problem', async (_label, method, path, headers, status, code) => {
    const answer = await send(method, path, headers)
    expectProblem(answer, `${method} ${path}`)
    expect(answer.status).toBe(status)
    expect(JSON.parse(answer.body).code).toBe(code)
  })

  it('answers a real preflight with CORS headers and no body', async () => {
    const answer = await send('OPTIONS', '/api/v1/accounts', { origin: 'https://app.example', 'access-control-request-method': 'POST' })
    expect(answer.status).toBe(204)
    expect(answer.headers['access-control-allow-origin']).toBe('*')
  })

  it.each([
    ['wrong body type', 'POST', '/api/v1/accounts', { 'content-type': 'application/xml' }, '<name>x</name>', 415],
    ['a text body where an object belongs', 'POST', '/api/v1/accounts', { 'content-type': 'text/plain' }, 'name=x', 400],
    ['malformed JSON', 'POST', '/api/v1/accounts', { 'content-type': 'application/json' }, '{"name":', 400],
    ['body over the limit', 'POST', '/api/v1/accounts', { 'content-type': 'application/json' }, JSON.stringify({ name: 'x'.repeat(5000) }), 413],
    ['bad limit', 'GET', '/api/v1/accounts?limit=abc', {}, '', 400],
    ['no CSRF header', 'POST', '/api/v1/accounts', { 'content-type': 'application/json', 'x-csrf-token': '' }, '{"name":"x"}', 403],
  ] as const)('%s answers a problem (signed in)', async (_label, method, path, headers, body, status) => {
    const answer = await send(method, path, { ...auth, ...headers }, body)
    expectProblem(answer, `${method} ${path}`)
    expect(answer.status).toBe(status)
  })

  it.each([
    // Within this app's 4 KiB body limit (test/http/request-bodies.test.ts sends 8,000 and 100,000 levels).
    ['of arrays nested 2,000 deep', 'POST', '/api/v1/accounts', 'application/json', Buffer.from(nestedText(2000, 'array')), 'nesting_too_deep'],
    ['of objects nested 600 deep', 'POST', '/api/v1/accounts/batch', 'application/json', Buffer.from(nestedText(600, 'object')), 'nesting_too_deep'],
    ['with a byte that is not UTF-8', 'POST', '/api/v1/accounts', 'application/json', Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), 'invalid_encoding'],
    ['of a form that is not UTF-8', 'POST', '/api/v1/accounts', 'application/x-www-form-urlencoded', Buffer.from([0x6e, 0x3d, 0xc3]), 'invalid_encoding'],
    ['of JSON cut short', 'PATCH', '/api/v1/accounts/0190d6f0-0000-7000-8000-000000000000', 'application/json', Buffer.from('{"name":"x'), 'malformed_json'],
    ['of multipart without its closing boundary', 'POST', '/api/v1/imports', 'multipart/form-data; boundary=x', Buffer.from('--x\r\nContent-Disposition: form-data; name="kind"\r\n\r\naccounts\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nname\r\n'), 'malformed_multipart'],
  ] as const)('a body %s answers 400 %s (signed in)', async (_label, method, path, type, body, code) => {
    const answer = await sendBytes(method, path, { ...auth, 'content-type': type }, body)
    expectProblem(answer, `${method} ${path}`)
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body).code).toBe(code)
  })

  it.each([
    ['malformed request line', 'GARBAGE\r\n\r\n', 400],
    ['unknown method', 'BREW /api/v1/accounts HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n', 400],
    ['headers too large', `GET /api/v1/accounts HTTP/1.1\r\nhost: localhost\r\nx-big: ${'a'.repeat(20_000)}\r\nconnection: close\r\n\r\n`, 431],
    ['invalid header character', 'GET /api/v1/accounts HTTP/1.1\r\nhost: localhost\r\nx-bad: a\u0001b\r\nconnection: close\r\n\r\n', 400],
  ])('%s (refused by the HTTP parser) answers a problem', async (_label, text, status) => {
    const answer = await rawRequest(port, Buffer.from(text, 'latin1'))
    expectProblem(answer, _label)
    expect(answer.status).toBe(status)
  })

  it('answers every random request under /api/v1 below 500, and every 4xx as a problem', async () => {
    const segment = fc.oneof(
      fc.constantFrom('accounts', 'contacts', 'cases', 'leads', 'opportunities', 'products', 'activities', 'case-comments', 'webhooks', 'migration', 'me', 'settings', 'comments', 'deliveries', 'convert', 'escalate', 'batch', 'count', 'openapi.json'),
      fc.uuid(),
      fc.constantFrom('%zz', '%00', '%2F', '..', '.', '', '%E2%80%AE', 'a'.repeat(250), '~', ';x=1', '%C0%AF'),
      fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/),
    )
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'),
      path: fc.array(segment, { minLength: 0, maxLength: 4 }).map((s) => `/api/v1/${s.join('/')}`),
      query: fc.constantFrom('', '?limit=0', '?limit=201', '?cursor=x', '?q=%zz', '?status=nope', '?x[y]=1', '?limit=1&limit=2', '?ids=a,b'),
      signedIn: fc.boolean(),
      contentType: fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'nonsense'),
      body: fc.oneof(fc.constant(''), fc.json({ maxDepth: 2 }), fc.string({ maxLength: 30 }), badBody),
      origin: fc.constantFrom(undefined, 'https://app.example', 'null'),
    })
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = {}
        if (r.signedIn) Object.assign(headers, auth)
        if (r.contentType) headers['content-type'] = r.contentType
        if (r.origin) headers.origin = r.origin
        const body = r.method === 'GET' || r.method === 'HEAD' || r.method === 'OPTIONS' ? '' : r.body
        const answer = await sendBytes(r.method, r.path + r.query, headers, typeof body === 'string' ? Buffer.from(body) : body)
        if (r.method === 'HEAD') {
          expect(answer.status, `HEAD ${r.path}`).toBeLessThan(500)
          return
        }
        expectProblem(answer, `${r.method} ${r.path}${r.query} ${JSON.stringify(headers)} ${body}`)
      }),
      { numRuns: 400 },
    )
  })
})
