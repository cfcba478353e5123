/**
 * Thin webhooks (docs/webhooks.md, The event catalogue): an endpoint with `payload: "thin"` receives
 * `{id, seq, type, timestamp, object_id}` only, signed, with the seq the change feed gives the same
 * event; a full endpoint beside it receives the whole event; the test event is sent whole.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { Webhook } from 'standardwebhooks'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'
import { createOrgWithAdmin, json, testConfig, type Member } from '../helpers/build-app.ts'
import { buildApp } from '../../src/app.ts'
import { startReceiver, type Receiver } from './receiver.ts'
import { jsonHoldsAmount } from '../helpers/json-values.ts'

const SECRET = 'thin webhook signing secret'

describe.each(await targets())('thin webhooks on %s', (target) => {
  let tdb: TestDatabase
  let app: FastifyInstance
  let thin: Receiver
  let full: Receiver
  let admin: Member

  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    app = await buildApp({ config: testConfig({ ALLOW_PRIVATE_OUTBOUND: 'true' }), database: tdb.database, logger: false })
    await app.ready()
    thin = await startReceiver('/thin')
    full = await startReceiver('/full')
  })
  afterAll(async () => {
    await thin?.close()
    await full?.close()
    await app?.close()
    await tdb?.drop()
  })
  beforeEach(async () => {
    await tdb.reset()
    for (const r of [thin, full]) r.received.length = 0
    admin = await createOrgWithAdmin(app)
  })

  async function until(check: () => boolean, what: string) {
    const deadline = Date.now() + 20_000
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await new Promise((r) => setTimeout(r, 25))
    }
  }

  it('sends the reference with its seq to a thin endpoint and the whole event to a full one', async () => {
    const events = ['opportunity.created', 'opportunity.updated', 'opportunity.stage_changed']
    const made = await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: thin.url, events, payload: 'thin', secret: SECRET } })
    expect(made.statusCode, made.body).toBe(201)
    expect(json(made).payload).toBe('thin')
    expect((await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: full.url, events } })).statusCode).toBe(201)

    const opp = json(await admin.request({ method: 'POST', url: '/api/v1/opportunities', payload: { name: 'Deal', amount: '5000.00', stage: 'prospecting' } }))
    expect((await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${opp.id}`, payload: { stage: 'proposal' } })).statusCode).toBe(200)
    await until(() => thin.received.length === 3 && full.received.length === 3, 'three deliveries to each endpoint')

    const verifier = new Webhook(SECRET, { format: 'raw' })
    const received = thin.received.map((r) => {
      verifier.verify(r.body, r.headers)
      return JSON.parse(r.body)
    })
    for (const body of received) {
      expect(Object.keys(body)).toEqual(['id', 'seq', 'type', 'timestamp', 'object_id'])
      expect(body.object_id).toBe(opp.id)
    }
    expect(jsonHoldsAmount(thin.received[0].body, 5000)).toBe(false)
    // The seqs are those of the change feed for the same events.
    const feed = json(await admin.request({ method: 'GET', url: '/api/v1/events' })).data as Array<{ id: string; seq: number }>
    const seqOf = new Map(feed.map((e) => [e.id, e.seq]))
    for (const body of received) expect(body.seq).toBe(seqOf.get(body.id))
    expect(new Set(received.map((b) => b.type))).toEqual(new Set(events))
    // The full endpoint got the records themselves.
    for (const r of full.received) expect(JSON.parse(r.body).data.object.id).toBe(opp.id)

    // Switching back to full takes effect for what comes next.
    const hook = json(made)
    expect(json(await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${hook.id}`, payload: { payload: 'full' } })).payload).toBe('full')
    await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${opp.id}`, payload: { name: 'Deal 2' } })
    await until(() => thin.received.length === 4, 'the delivery after switching to full')
    expect(JSON.parse(thin.received[3].body).data.object.name).toBe('Deal 2')
    expect((await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${hook.id}`, payload: { payload: 'partial' } })).statusCode).toBe(400)
  })
})
