/**
 * Every 4xx under /api/v1 is an RFC 9457 problem with a stable code, and nothing a client sends
 * produces a 5xx: checked over a real socket, so Node's parser, Fastify's router and the CORS plugin
 * all answer for themselves, with hand-picked cases and random requests.
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
      body: fc.oneof(fc.constant(''), fc.json({ maxDepth: 2 }), fc.string({ maxLength: 30 })),
      origin: fc.constantFrom(undefined, 'https://app.example', 'null'),
    })
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = {}
        if (r.signedIn) Object.assign(headers, auth)
        if (r.contentType) headers['content-type'] = r.contentType
        if (r.origin) headers.origin = r.origin
        const body = r.method === 'GET' || r.method === 'HEAD' || r.method === 'OPTIONS' ? '' : r.body
        const answer = await send(r.method, r.path + r.query, headers, body)
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
