/**
 * Every event of the spec, produced by the real API and received by a real receiver that verifies
 * the Standard Webhooks signature with the off-the-shelf `standardwebhooks` package.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'
import { EVENT_NAMES } from '../../src/events/event-catalogue.ts'
import { startReceiver, type Receiver } from './receiver.ts'
import { sql } from 'kysely'

const PLAIN_SECRET = 'a plain shared secret of some length'

describe.each(await targets())('webhook events on %s', (target) => {
  const ctx = appPerFile(target, { ALLOW_PRIVATE_OUTBOUND: 'true' })
  let receiver: Receiver
  let admin: Member

  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(() => receiver.close())
  beforeEach(async () => {
    receiver.received.length = 0
    receiver.replies.length = 0
    admin = await createOrgWithAdmin(ctx.app)
  })

  async function register(body: Record<string, unknown>, member = admin) {
    const res = await member.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url, ...body } })
    expect(res.statusCode, res.body).toBe(201)
    return json(res)
  }

  it('delivers every event type of the spec with the documented body, signed', async () => {
    await register({ events: [...EVENT_NAMES], secret: PLAIN_SECRET })
    const account = await createVia(admin, 'account', { name: 'Acme' })
    await admin.request({ method: 'PATCH', url: `/api/v1/accounts/${account.id}`, payload: { name: 'Acme Corp', website: 'https://acme.example' } })
    const contact = await createVia(admin, 'contact', { last_name: 'Ito', account_id: account.id })
    await admin.request({ method: 'PATCH', url: `/api/v1/contacts/${contact.id}`, payload: { first_name: 'Aki' } })
    const opp = await createVia(admin, 'opportunity', { name: 'Big deal', account_id: account.id, amount: 1200.5 })
    await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${opp.id}`, payload: { stage: 'qualification' } })
    const kase = await createVia(admin, 'case', { subject: 'Broken', account_id: account.id })
    await admin.request({ method: 'PATCH', url: `/api/v1/cases/${kase.id}`, payload: { priority: 'high' } })
    expect((await admin.request({ method: 'POST', url: `/api/v1/cases/${kase.id}/escalate` })).statusCode).toBe(200)
    const lead = await createVia(admin, 'lead', { last_name: 'Moss', company: 'Reynholm' })
    await admin.request({ method: 'PATCH', url: `/api/v1/leads/${lead.id}`, payload: { first_name: 'Maurice' } })
    expect((await admin.request({ method: 'POST', url: `/api/v1/leads/${lead.id}/convert`, payload: {} })).statusCode).toBe(200)
    const spare = await createVia(admin, 'lead', { last_name: 'Trenneman', company: 'Reynholm' })
    for (const [path, id] of [['leads', spare.id], ['cases', kase.id], ['opportunities', opp.id], ['contacts', contact.id], ['accounts', account.id]] as const) {
      expect((await admin.request({ method: 'DELETE', url: `/api/v1/${path}/${id}` })).statusCode).toBe(204)
    }
    // A product change is not an event of the spec: nothing is sent for it.
    await createVia(admin, 'product', { name: 'Not announced' })

    // account created/updated/deleted 3, contact 3, opportunity 4 (stage change is also an update),
    // case 4, leads 5 (two created), and the account and contact the conversion created 2.
    const expected = 21
    const received = await receiver.waitFor(expected)
    await new Promise((r) => setTimeout(r, 300))
    expect(received).toHaveLength(expected)

    const verifier = new Webhook(Buffer.from(PLAIN_SECRET, 'utf8').toString('base64'))
    const verifierRaw = new Webhook(PLAIN_SECRET, { format: 'raw' })
    const events = received.map((r) => {
      verifierRaw.verify(r.body, r.headers)
      verifier.verify(r.body, r.headers)
      const body = JSON.parse(r.body)
      expect(r.headers['webhook-id']).toBe(body.id)
      expect(r.headers['content-type']).toBe('application/json')
      expect(Object.keys(body).sort()).toEqual(['actor', 'data', 'id', 'operation_id', 'organization_id', 'timestamp', 'type'])
      expect(body.organization_id).toBe(admin.orgId)
      expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      return body
    })
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(EVENT_NAMES))
    const of = (type: string, id?: string) => events.filter((e) => e.type === type && (!id || e.data.object.id === id))

    const updated = of('account.updated', account.id)[0]
    expect(updated.data.object.name).toBe('Acme Corp')
    expect(updated.data.previous).toEqual({ name: 'Acme', website: null })
    expect(of('account.created', account.id)[0].data.previous).toBeUndefined()
    expect(of('account.deleted', account.id)[0].data.object.name).toBe('Acme Corp')

    const stage = of('opportunity.stage_changed')[0]
    expect(stage.data.object.stage).toBe('qualification')
    expect(stage.data.previous.stage).toBe('prospecting')
    expect(stage.data.object.amount).toBe('1200.50')
    // The stage change is an update as well.
    expect(of('opportunity.updated', opp.id)[0].data.previous.stage).toBe('prospecting')

    const escalated = of('case.escalated')[0]
    expect(escalated.data.object.status).toBe('escalated')
    expect(escalated.data.previous.is_escalated).toBe(false)

    const converted = of('lead.converted')[0]
    expect(converted.data.object.status).toBe('converted')
    expect(converted.data.previous.status).not.toBe('converted')
    // Conversion creates the account and contact it links: their created events are sent too.
    expect(of('account.created').map((e) => e.data.object.id)).toContain(converted.data.object.converted_account_id)
    expect(of('contact.created').map((e) => e.data.object.id)).toContain(converted.data.object.converted_contact_id)
  })

  it('sends only the subscribed events, unsigned without a secret', async () => {
    await register({ events: ['case.escalated'] })
    const kase = await createVia(admin, 'case')
    await createVia(admin, 'account')
    await admin.request({ method: 'POST', url: `/api/v1/cases/${kase.id}/escalate` })
    const [only] = await receiver.waitFor(1)
    await new Promise((r) => setTimeout(r, 300))
    expect(receiver.received).toHaveLength(1)
    expect(JSON.parse(only.body).type).toBe('case.escalated')
    expect(only.headers['webhook-signature']).toBeUndefined()
    expect(only.headers['webhook-id']).toBeTruthy()
  })

  it('signs with a generated whsec_ secret shown once', async () => {
    const created = await register({ events: ['account.created'], generate_secret: true })
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
    expect(created.secret_set).toBe(true)
    const again = json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${created.id}` }))
    expect(again.secret).toBeUndefined()
    expect(JSON.stringify(again)).not.toContain(created.secret.slice(6, 20))
    await createVia(admin, 'account')
    const [r] = await receiver.waitFor(1)
    expect(() => new Webhook(created.secret).verify(r.body, r.headers)).not.toThrow()
    expect(() => new Webhook(`whsec_${Buffer.from('another key of the same kind!!').toString('base64')}`).verify(r.body, r.headers)).toThrow()
  })

  it('hides opportunity amounts from endpoints registered without erp:read', async () => {
    const hook = await register({ events: ['opportunity.created'] })
    await sql`UPDATE webhooks SET include_amounts = false WHERE id = ${hook.id}`.execute(ctx.app.db)
    await createVia(admin, 'opportunity', { amount: 99 })
    const [r] = await receiver.waitFor(1)
    expect(JSON.parse(r.body).data.object.amount).toBeNull()
  })

  it('says who made each change and as part of which operation: actor and operation_id in the body and the journal', async () => {
    await register({ events: ['account.created', 'account.updated'] })
    const made = json(await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Authored' } }))
    const batch = await admin.request({ method: 'POST', url: '/api/v1/accounts/batch', payload: { operation: 'create', records: [{ name: 'B1' }, { name: 'B2' }] } })
    expect(batch.statusCode).toBe(200)
    const bodies = (await receiver.waitFor(3)).map((r) => JSON.parse(r.body))
    const single = bodies.find((b) => b.data.object.id === made.id)!
    expect(single.actor).toEqual({ user_id: admin.userId, client_id: null, channel: 'app' })
    expect(single.operation_id).toMatch(/^[0-9a-f-]{36}$/)
    const inBatch = bodies.filter((b) => b.data.object.name !== 'Authored')
    // One batch, one operation; another request, another.
    expect(new Set(inBatch.map((b) => b.operation_id)).size).toBe(1)
    expect(inBatch[0].operation_id).not.toBe(single.operation_id)
    // The journal keeps the same author in columns an operation's history can be read by.
    const rows = await sql<{ actor_user_id: string; channel: string; operation_id: string }>`SELECT actor_user_id, channel, operation_id FROM events WHERE org_id = ${admin.orgId} AND record_id = ${made.id}`.execute(ctx.app.db)
    expect(rows.rows).toEqual([{ actor_user_id: admin.userId, channel: 'app', operation_id: single.operation_id }])
  })
})
