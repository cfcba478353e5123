/**
 * The webhook API: registration rules (URLs, SSRF guard, event names, secrets, the limit of 50),
 * who may do what (scopes, administrators), paging, the test event, and tenancy.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import dns from 'node:dns'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { addMember, buildTestApp, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'
import { api, closeHarness, confidentialClient, createHarness, obtainTokens, resetHarness, type OAuthHarness } from '../oauth/helpers.ts'
import { EVENT_NAMES } from '../../src/events/event-catalogue.ts'
import { pruneDeliveries } from '../../src/webhooks/delivery.repository.ts'
import { startReceiver, type Receiver } from './receiver.ts'

// The addresses the SSRF guard must refuse, literal and behind a name that resolves to loopback.
const PRIVATE_URLS = [
  'https://127.0.0.1/hook',
  'https://10.1.2.3/hook',
  'https://169.254.169.254/latest/meta-data',
  'https://[::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:a9fe:a9fe]/hook',
  'https://[fd00::1]/hook',
  'https://localhost/hook',
  // IPv4 hidden in IPv6 transition forms: 6to4, local-use NAT64, SIIT, Teredo (client), ISATAP.
  'https://[2002:7f00:1::]/hook',
  'https://[2002:A9FE:A9FE::1]/hook',
  'https://[64:ff9b:1::7f00:1]/hook',
  'https://[::ffff:0:a9fe:a9fe]/hook',
  'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
  'https://[2606:4700::5efe:a9fe:a9fe]/hook',
]

describe.each(await targets())('webhook API on %s', (target) => {
  let h: OAuthHarness
  let receiver: Receiver
  let admin: Member
  const post = (m: Member, payload: unknown) => m.request({ method: 'POST', url: '/api/v1/webhooks', payload: payload as object })

  beforeAll(async () => {
    h = await createHarness(target, { ALLOW_PRIVATE_OUTBOUND: 'false', WEBHOOK_ALLOW_HTTP: 'true' })
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
    await closeHarness(h)
  })
  beforeEach(async () => {
    await resetHarness(h)
    admin = await createOrgWithAdmin(h.app)
  })

  it('refuses private, loopback, link-local and metadata destinations at registration', async () => {
    expect((await dns.promises.lookup('localhost', { all: true })).length).toBeGreaterThan(0)
    for (const url of [...PRIVATE_URLS, receiver.url]) {
      const res = await post(admin, { url, events: ['account.created'] })
      expect(res.statusCode, url).toBe(400)
      expect(json(res).code).toBe('validation_failed')
      expect(json(res).errors[0].field).toBe('url')
      expect(json(res).detail).toMatch(/private or reserved address/)
    }
  })

  it('accepts the NAT64 address of a public host: its embedded IPv4 decides', async () => {
    const res = await post(admin, { url: 'https://[64:ff9b::93.184.215.14]/hook', events: ['account.created'] })
    expect(res.statusCode, res.body).toBe(201)
    expect(json(res).url).toBe('https://[64:ff9b::5db8:d70e]/hook')
  })

  it('refuses a delivery to a private address even when the stored URL points there', async () => {
    // The harness's clock stands still; deliveries need a dispatcher on real time.
    const live = await buildTestApp(h.tdb.database, { ALLOW_PRIVATE_OUTBOUND: 'false', WEBHOOK_ALLOW_HTTP: 'true' })
    try {
      // As if registered while the operator allowed private addresses, then turned it off.
      const ok = await post(admin, { url: 'https://93.184.215.14/hook', events: ['account.created'] })
      expect(ok.statusCode, ok.body).toBe(201)
      // Every form the registration check refuses, plus the live receiver on loopback.
      for (const url of [...PRIVATE_URLS, receiver.url]) {
        await sql`UPDATE webhooks SET url = ${url} WHERE id = ${json(ok).id}`.execute(h.app.db)
        const test = await admin.request({ method: 'POST', url: `/api/v1/webhooks/${json(ok).id}/test` })
        expect(test.statusCode).toBe(202)
        const deliveryId = json(test).id
        let d: any
        for (let i = 0; i < 200; i++) {
          d = json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${json(ok).id}/deliveries` })).data.find((x: any) => x.id === deliveryId)
          if (d.attempts.length > 0) break
          await new Promise((r) => setTimeout(r, 25))
        }
        expect(d.attempts[0].status_code).toBeNull()
        expect(d.attempts[0].error).toMatch(/private or reserved address/)
      }
      expect(receiver.received).toHaveLength(0)
    } finally {
      await live.close()
    }
  })

  it('checks URL form, event names and secrets with clear messages', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ url: 'not a url', events: ['account.created'] }, /absolute URL/],
      [{ url: 'ftp://example.com/x', events: ['account.created'] }, /https/],
      [{ url: 'https://user:pw@example.com/x', events: ['account.created'] }, /user name or password/],
      [{ url: 'https://93.184.215.14/x#frag', events: ['account.created'] }, /fragment/],
      [{ url: 'https://93.184.215.14/x', events: ['account.exploded', 'account.created'] }, /Unknown event name: account.exploded\. Valid names: account\.created/],
      [{ url: 'https://93.184.215.14/x', events: [] }, /events/],
      [{ url: 'https://93.184.215.14/x', events: ['account.created'], secret: 'short' }, /at least 16/],
      [{ url: 'https://93.184.215.14/x', events: ['account.created'], secret: 'whsec_bm90IGVub3VnaA==' }, /24 to 64/],
      [{ url: 'https://93.184.215.14/x', events: ['account.created'], secret: 'x'.repeat(20), generate_secret: true }, /either secret or generate_secret/],
      [{ url: 'https://93.184.215.14/x', events: ['account.created'], colour: 'blue' }, /colour/],
      [{ events: ['account.created'] }, /url/],
    ]
    for (const [payload, message] of cases) {
      const res = await post(admin, payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/)
      expect(JSON.stringify(json(res)), JSON.stringify(payload)).toMatch(message)
    }
    expect(json(await admin.request({ method: 'GET', url: '/api/v1/webhooks' })).data).toHaveLength(0)
  })

  it('allows 50 webhooks per organization and answers 409 past that', async () => {
    const results = await Promise.all(Array.from({ length: 52 }, (_, i) => post(admin, { url: `https://93.184.215.14/h${i}`, events: ['account.created'] })))
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(50)
    const refused = results.filter((r) => r.statusCode !== 201)
    expect(refused.map((r) => r.statusCode)).toEqual([409, 409])
    expect(json(refused[0]).code).toBe('webhook_limit_reached')
    const page1 = json(await admin.request({ method: 'GET', url: '/api/v1/webhooks?limit=30' }))
    const page2 = json(await admin.request({ method: 'GET', url: `/api/v1/webhooks?limit=30&cursor=${page1.next_cursor}` }))
    expect(page1.has_more).toBe(true)
    expect(page2.has_more).toBe(false)
    expect(new Set([...page1.data, ...page2.data].map((w: any) => w.id)).size).toBe(50)
    expect((await admin.request({ method: 'GET', url: '/api/v1/webhooks?limit=500' })).statusCode).toBe(400)
  })

  it('never returns a secret after creation, and can change, stop signing and delete', async () => {
    const secret = 's'.repeat(24)
    const created = json(await post(admin, { url: 'https://93.184.215.14/x', events: ['account.created'], secret }))
    expect(created).toMatchObject({ secret_set: true, secret: null, status: 'active', events: ['account.created'] })
    for (const res of [await admin.request({ method: 'GET', url: '/api/v1/webhooks' }), await admin.request({ method: 'GET', url: `/api/v1/webhooks/${created.id}` })]) {
      expect(res.body).not.toContain(secret)
    }
    const stored = await sql<{ secret_sealed: string }>`SELECT secret_sealed FROM webhooks WHERE id = ${created.id}`.execute(h.app.db)
    expect(stored.rows[0].secret_sealed).not.toContain(secret)
    const changed = json(await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${created.id}`, payload: { events: ['case.escalated', 'lead.converted'], secret: null } }))
    expect(changed).toMatchObject({ secret_set: false, events: ['case.escalated', 'lead.converted'] })
    const paused = json(await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${created.id}`, payload: { status: 'disabled' } }))
    expect(paused).toMatchObject({ status: 'disabled', disabled_reason: 'Disabled by a user.' })
    expect((await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${created.id}`, payload: {} })).statusCode).toBe(400)
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/webhooks/${created.id}` })).statusCode).toBe(204)
    expect((await admin.request({ method: 'GET', url: `/api/v1/webhooks/${created.id}` })).statusCode).toBe(404)
  })

  it("works with an administrator's bearer tokens: crm:read reads, crm:write with crm:read registers; members may not, in the app or with a token", async () => {
    const client = await confidentialClient(h.app, admin.orgId)
    const reader = await obtainTokens(h.app, admin, client, { scope: 'crm:read' })
    const writeOnly = await obtainTokens(h.app, admin, client, { scope: 'crm:write' })
    const writer = await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write' })
    const body = { url: 'https://93.184.215.14/by-token', events: [...EVENT_NAMES] }
    for (const token of [reader, writeOnly]) {
      const denied = await api(h.app, token.access_token, { method: 'POST', url: '/api/v1/webhooks', payload: body })
      expect(denied.statusCode).toBe(403)
      expect(denied.headers['www-authenticate']).toMatch(/insufficient_scope/)
    }
    const created = await api(h.app, writer.access_token, { method: 'POST', url: '/api/v1/webhooks', payload: body })
    expect(created.statusCode, created.body).toBe(201)
    expect(json(await api(h.app, reader.access_token, { url: '/api/v1/webhooks' })).data).toHaveLength(1)
    // Every webhook operation, for a member's session and token: test/members/admin-operations.test.ts.
    const member = await addMember(h.app, admin.orgId, 'member')
    expect((await post(member, body)).statusCode).toBe(403)
    const listed = await member.request({ method: 'GET', url: '/api/v1/webhooks' })
    expect(listed.statusCode).toBe(403)
    expect(json(listed).code).toBe('admin_required')
  })

  it("keeps organizations apart: A can neither see nor change B's webhooks, and B's changes never reach A", async () => {
    const h2 = await buildTestApp(h.tdb.database, { ALLOW_PRIVATE_OUTBOUND: 'true' })
    try {
      const a = await createOrgWithAdmin(h2, 'A')
      const b = await createOrgWithAdmin(h2, 'B')
      const hookA = json(await a.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url, events: ['account.created'] } }))
      const hookB = json(await b.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url, events: ['account.created'] } }))
      expect(json(await a.request({ method: 'GET', url: '/api/v1/webhooks' })).data.map((w: any) => w.id)).toEqual([hookA.id])
      for (const req of [
        { method: 'GET', url: `/api/v1/webhooks/${hookB.id}` },
        { method: 'PATCH', url: `/api/v1/webhooks/${hookB.id}`, payload: { url: 'https://203.0.113.9/x' } },
        { method: 'DELETE', url: `/api/v1/webhooks/${hookB.id}` },
        { method: 'GET', url: `/api/v1/webhooks/${hookB.id}/deliveries` },
        { method: 'POST', url: `/api/v1/webhooks/${hookB.id}/test` },
      ] as const) {
        expect((await a.request(req as never)).statusCode, `${req.method} ${req.url}`).toBe(404)
      }
      receiver.received.length = 0
      await createVia(b, 'account', { name: 'B only' })
      const [got] = await receiver.waitFor(1)
      await new Promise((r) => setTimeout(r, 300))
      expect(receiver.received).toHaveLength(1)
      expect(JSON.parse(got.body).organization_id).toBe(b.orgId)
      const logA = json(await a.request({ method: 'GET', url: `/api/v1/webhooks/${hookA.id}/deliveries` }))
      expect(logA.data).toHaveLength(0)
      // A's delivery ids are unknown in B's log, and B's retry of A's delivery is a 404.
      const test = json(await a.request({ method: 'POST', url: `/api/v1/webhooks/${hookA.id}/test` }))
      expect((await b.request({ method: 'POST', url: `/api/v1/webhooks/${hookB.id}/deliveries/${test.id}/retry` })).statusCode).toBe(404)
    } finally {
      await h2.close()
    }
  })

  it('pages the delivery log newest first and sends the test event', async () => {
    const h2 = await buildTestApp(h.tdb.database, { ALLOW_PRIVATE_OUTBOUND: 'true' })
    try {
      const a = await createOrgWithAdmin(h2)
      const hook = json(await a.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url, events: ['account.created'] } }))
      receiver.received.length = 0
      for (let i = 0; i < 5; i++) await createVia(a, 'account', { name: `A${i}` })
      const test = await a.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/test` })
      expect(test.statusCode).toBe(202)
      expect(json(test).event_type).toBe('webhook.test')
      await receiver.waitFor(6)
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const page: any = json(await a.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}` }))
        seen.push(...page.data.map((d: any) => d.event_type === 'webhook.test' ? 'test' : d.payload.data.object.name))
        cursor = page.next_cursor
      } while (cursor)
      expect(seen).toEqual(['test', 'A4', 'A3', 'A2', 'A1', 'A0'])
      const bad = await a.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries?cursor=nope` })
      expect(json(bad).code).toBe('invalid_cursor')

      // Housekeeping drops finished deliveries past the retention, with their attempts.
      for (let i = 0; i < 200; i++) {
        const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`.execute(h2.db)
        if (r.rows[0].n === 0) break
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      await sql`UPDATE webhook_deliveries SET updated_at = now() - interval '31 days' WHERE event_type = 'webhook.test'`.execute(h2.db)
      await pruneDeliveries(h2.db, new Date(Date.now() - 30 * 86400 * 1000))
      const left = json(await a.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries` })).data
      expect(left.map((d: any) => d.event_type)).toEqual(Array(5).fill('account.created'))
    } finally {
      await h2.close()
    }
  })
})
