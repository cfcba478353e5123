/**
 * Long-lived responses over real HTTP: access that ends ends them (a revoked token, a client revoked
 * in Settings, a person removed, a session signed out, an administrator demoted), within seconds and
 * before anything written afterwards reaches them; a download whose access ended is cut, never
 * completed; and the caps on open streams hold per client and per organization across processes.
 */
import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.ts'
import { insertMigration } from '../../src/migration/migration.repository.ts'
import { SESSION_COOKIE } from '../../src/orgs/session.service.ts'
import { uuidv7 } from '../../src/shared/ids.ts'
import { addMember, createOrgWithAdmin, json, testConfig, type Member } from '../helpers/build-app.ts'
import { targets } from '../helpers/databases.ts'
import { endedWithin, openSse, type SseStream } from '../helpers/sse.ts'
import { basic, closeHarness, confidentialClient, createHarness, obtainTokens, resetHarness, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'

const LIMITS = { STREAM_RECHECK_SECONDS: '1', STREAMS_PER_CLIENT: '2', STREAMS_PER_ORG: '3' }
/** Access is checked every second; a stream must be gone well within this. */
const ENDS_WITHIN_MS = 4000

describe.each(await targets())('long-lived responses on %s', (target) => {
  let h: OAuthHarness
  let base: string
  let admin: Member
  let client: TestClient
  beforeAll(async () => {
    h = await createHarness(target, LIMITS)
    await h.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`
  })
  afterAll(() => closeHarness(h))
  beforeEach(async () => {
    await resetHarness(h)
    admin = await createOrgWithAdmin(h.app)
    client = await confidentialClient(h.app, admin.orgId)
  })

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
  const session = (m: Member) => ({ cookie: `${SESSION_COOKIE}=${m.session}` })
  const feed = (headers: Record<string, string>) => openSse(`${base}/api/v1/events/stream`, headers)
  const createAccount = async (name: string) => expect((await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name } })).statusCode).toBe(201)
  const names = (s: SseStream) => s.frames.filter((f) => f.event === 'account.created').map((f) => f.data.data.object.name)

  /** The stream ends with an access_ended event, and nothing written after it ended reaches it. */
  async function expectAccessEnded(stream: SseStream) {
    expect(await endedWithin(stream, ENDS_WITHIN_MS)).toBe('ended')
    expect(stream.frames.at(-1)?.event).toBe('access_ended')
    await createAccount('After')
    await new Promise((r) => setTimeout(r, 300))
    expect(names(stream)).not.toContain('After')
  }

  it('ends a stream within seconds of its token being revoked (RFC 7009)', async () => {
    const tokens = await obtainTokens(h.app, admin, client, { scope: 'crm:read' })
    const stream = await feed(bearer(tokens.access_token))
    expect(stream.status).toBe(200)
    await createAccount('Before')
    await stream.waitFor((f) => f.data?.data?.object?.name === 'Before')
    const revoked = await h.app.inject({ method: 'POST', url: '/api/oauth/revoke', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(client.client_id, client.client_secret) }, payload: `token=${tokens.access_token}` })
    expect(revoked.statusCode).toBe(200)
    await expectAccessEnded(stream)
    // The same token opens nothing new.
    expect((await fetch(`${base}/api/v1/events/stream`, { headers: bearer(tokens.access_token) })).status).toBe(401)
  })

  it('ends a stream when its API client is revoked in Settings', async () => {
    const tokens = await obtainTokens(h.app, admin, client, { scope: 'crm:read' })
    const stream = await feed(bearer(tokens.access_token))
    expect(stream.status).toBe(200)
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/settings/api-clients/${client.client_id}` })).statusCode).toBe(204)
    await expectAccessEnded(stream)
  })

  it("ends the streams of a person removed from the organization, their token's and their session's", async () => {
    const member = await addMember(h.app, admin.orgId)
    const tokens = await obtainTokens(h.app, member, client, { scope: 'crm:read' })
    const viaToken = await feed(bearer(tokens.access_token))
    const viaSession = await feed(session(member))
    expect([viaToken.status, viaSession.status]).toEqual([200, 200])
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/members/${member.userId}` })).statusCode).toBe(204)
    await expectAccessEnded(viaToken)
    expect(await endedWithin(viaSession, ENDS_WITHIN_MS)).toBe('ended')
    expect(viaSession.frames.at(-1)?.event).toBe('access_ended')
  })

  it('ends a session stream when the session signs out', async () => {
    const stream = await feed(session(admin))
    expect(stream.status).toBe(200)
    const out = await h.app.inject({ method: 'POST', url: '/sign-out', cookies: { [SESSION_COOKIE]: admin.session }, headers: { origin: 'http://localhost:3000' } })
    expect(out.statusCode).toBe(303)
    expect(await endedWithin(stream, ENDS_WITHIN_MS)).toBe('ended')
    expect(stream.frames.at(-1)?.event).toBe('access_ended')
  })

  it('ends the migration progress stream of an administrator who is demoted', async () => {
    const second = await addMember(h.app, admin.orgId, 'admin')
    const id = uuidv7()
    // Analyzed in the same transaction it was created in, so no runner picks it up to analyze.
    await h.app.db.transaction().execute(async (trx) => {
      await insertMigration(trx, admin.orgId, { id, environment: 'production', srcInstanceUrl: 'https://example.my.salesforce.com', srcLoginUrl: null, accessTokenSealed: 'sealed', refreshTokenSealed: null, sourceOrgId: null, createdBy: second.userId }, new Date())
      await sql`UPDATE migrations SET status = 'analyzed' WHERE org_id = ${admin.orgId} AND id = ${id}`.execute(trx)
    })
    const stream = await openSse(`${base}/api/v1/migration/${id}/events`, session(second))
    expect(stream.status).toBe(200)
    await stream.waitFor((f) => f.event === 'migration')
    expect((await admin.request({ method: 'PATCH', url: `/api/v1/members/${second.userId}`, payload: { role: 'member' } })).statusCode).toBe(200)
    expect(await endedWithin(stream, ENDS_WITHIN_MS)).toBe('ended')
    expect(stream.frames.at(-1)?.event).toBe('access_ended')
  })

  it('cuts a download whose access ended instead of completing it', async () => {
    // About 12 MB of CSV: more than the sockets' buffers hold, so the export is still running when the token goes.
    const description = 'd'.repeat(4000)
    for (let b = 0; b < 15; b++) {
      const res = await admin.request({ method: 'POST', url: '/api/v1/accounts/batch', payload: { operation: 'create', records: Array.from({ length: 200 }, (_, i) => ({ name: `A${b}-${i}`, description })) } })
      expect(res.statusCode).toBe(200)
    }
    const tokens = await obtainTokens(h.app, admin, client, { scope: 'crm:read' })
    const res = await fetch(`${base}/api/v1/accounts/export.csv?limit=200`, { headers: bearer(tokens.access_token) })
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let bytes = (await reader.read()).value!.length
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/settings/api-clients/${client.client_id}` })).statusCode).toBe(204)
    await new Promise((r) => setTimeout(r, ENDS_WITHIN_MS))
    const outcome = await (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) return 'completed'
          bytes += value.length
        }
      } catch {
        return 'cut'
      }
    })()
    expect(outcome).toBe('cut')
    expect(bytes).toBeLessThan(3000 * 4000)
  })

  it('caps open streams per client and per organization across processes, with 429 too_many_streams, and frees a slot on close', async () => {
    // A second process on the same database: the caps are counted in the database, not in memory.
    const other = await buildApp({ config: testConfig(LIMITS), database: h.tdb.database, logger: false })
    await other.listen({ port: 0, host: '127.0.0.1' })
    const otherBase = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`
    try {
      const a = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
      const second = await confidentialClient(h.app, admin.orgId, { name: 'Second' })
      const b = (await obtainTokens(h.app, admin, second, { scope: 'crm:read' })).access_token
      const third = await confidentialClient(h.app, admin.orgId, { name: 'Third' })
      const c = (await obtainTokens(h.app, admin, third, { scope: 'crm:read' })).access_token

      const a1 = await feed(bearer(a))
      const a2 = await openSse(`${otherBase}/api/v1/events/stream`, bearer(a))
      expect([a1.status, a2.status]).toEqual([200, 200])
      const a3 = await fetch(`${base}/api/v1/events/stream`, { headers: bearer(a) })
      expect(a3.status).toBe(429)
      expect(a3.headers.get('retry-after')).toBe('10')
      const problem = await a3.json()
      expect(problem.code).toBe('too_many_streams')
      expect(problem.detail).toMatch(/API client/)

      const b1 = await openSse(`${otherBase}/api/v1/events/stream`, bearer(b))
      expect(b1.status).toBe(200)
      // Three open in the organization: another client, and the web app, are refused too.
      const c1 = await fetch(`${otherBase}/api/v1/events/stream`, { headers: bearer(c) })
      expect(c1.status).toBe(429)
      expect((await c1.json()).detail).toMatch(/organization/)
      expect((await fetch(`${base}/api/v1/accounts/export.csv`, { headers: session(admin) })).status).toBe(429)
      // Another organization has its own caps.
      const elsewhere = await createOrgWithAdmin(h.app)
      const e1 = await feed(session(elsewhere))
      expect(e1.status).toBe(200)

      a1.close()
      let reopened = 0
      for (let i = 0; i < 40 && reopened !== 200; i++) {
        await new Promise((r) => setTimeout(r, 50))
        const again = await fetch(`${base}/api/v1/events/stream`, { headers: bearer(c), signal: AbortSignal.timeout(1000) }).catch(() => null)
        reopened = again?.status ?? 0
        if (again?.status !== 200) continue
        await again.body?.cancel()
      }
      expect(reopened).toBe(200)
      for (const s of [a2, b1, e1]) s.close()
    } finally {
      await other.close()
    }
  })

  it('answers the caps as problems a client can act on, listed in the OpenAPI document', async () => {
    const doc = json(await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' }))
    expect(Object.keys(doc.paths['/api/v1/events/stream'].get.responses)).toEqual(expect.arrayContaining(['200', '429']))
  })
})
