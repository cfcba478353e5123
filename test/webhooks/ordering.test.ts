/**
 * Order per record (docs/webhooks.md, Order): an endpoint with `ordering: "per_record"` receives
 * one record's events one after another in event order, the next only once the previous succeeded
 * or was given up, even while the previous waits for a retry; an unordered endpoint does not wait.
 * On PostgreSQL, several claimers racing over one queue never hand out a record's event before its
 * predecessors are finished.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { sql, type Kysely } from 'kysely'
import { createTestDatabase, isPostgresReachable, targets, type TestDatabase } from '../helpers/databases.ts'
import { createOrgWithAdmin, json, testConfig, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'
import { buildApp } from '../../src/app.ts'
import { openPostgres, type Database } from '../../src/db/connect.ts'
import type { DB } from '../../src/db/database.ts'
import { ManualClock } from '../../src/shared/clock.ts'
import { claimDueDeliveries, recordAttempt, type ClaimedDelivery } from '../../src/webhooks/delivery.repository.ts'
import { startReceiver, type Receiver } from './receiver.ts'

describe.each(await targets())('webhook order per record on %s', (target) => {
  let tdb: TestDatabase
  let app: FastifyInstance
  let clock: ManualClock
  let ordered: Receiver
  let unordered: Receiver
  let admin: Member

  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    // Ahead of real time, so rows written now are due while retries wait for the test to move it.
    clock = new ManualClock(Date.now() + 3600_000)
    app = await buildApp({ config: testConfig({ ALLOW_PRIVATE_OUTBOUND: 'true' }), database: tdb.database, logger: false, clock })
    await app.ready()
    ordered = await startReceiver('/ordered')
    unordered = await startReceiver('/unordered')
  })
  afterAll(async () => {
    await ordered?.close()
    await unordered?.close()
    await app?.close()
    await tdb?.drop()
  })
  beforeEach(async () => {
    await tdb.reset()
    for (const r of [ordered, unordered]) {
      r.received.length = 0
      r.replies.length = 0
      r.fallback = 200
    }
    admin = await createOrgWithAdmin(app)
  })

  async function register(url: string, ordering?: 'none' | 'per_record') {
    const res = await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url, events: ['account.created', 'account.updated'], ...(ordering ? { ordering } : {}) } })
    expect(res.statusCode, res.body).toBe(201)
    return json(res)
  }
  const ids = (r: Receiver) => r.received.map((x) => x.headers['webhook-id'])

  it('holds a record\'s later events while the first waits for its retry, then sends 1, 2, 3 in order; an unordered endpoint does not wait', async () => {
    const hookOrdered = await register(ordered.url, 'per_record')
    expect(hookOrdered.ordering).toBe('per_record')
    expect((await register(unordered.url)).ordering).toBe('none')
    ordered.replies.push(500)
    unordered.replies.push(500)

    const account = await createVia(admin, 'account', { name: 'Event 1' })
    await ordered.waitFor(1)
    await unordered.waitFor(1)
    for (const name of ['Event 2', 'Event 3']) {
      const res = await admin.request({ method: 'PATCH', url: `/api/v1/accounts/${account.id}`, payload: { name } })
      expect(res.statusCode, res.body).toBe(200)
    }
    // The unordered endpoint gets 2 and 3 while 1 waits 5 s for its retry...
    await unordered.waitFor(3)
    await new Promise((r) => setTimeout(r, 600))
    // ...the ordered one gets nothing more: 2 and 3 wait behind 1.
    expect(ordered.received).toHaveLength(1)
    const log = json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hookOrdered.id}/deliveries` })).data
    expect(log.map((d: any) => d.status)).toEqual(['pending', 'pending', 'pending'])
    expect(log.filter((d: any) => d.attempt_count > 0)).toHaveLength(1)

    clock.advance(5)
    app.webhookDispatcher!.wake()
    await ordered.waitFor(4)
    await unordered.waitFor(4)
    const names = (r: Receiver) => r.received.map((x) => JSON.parse(x.body).data.object.name)
    expect(names(ordered)).toEqual(['Event 1', 'Event 1', 'Event 2', 'Event 3'])
    expect(ordered.received.map((x) => x.headers['webhook-id'])[0]).toBe(ids(ordered)[1])
    // Unordered: 2 and 3 came while 1 waited for its retry, in whatever order their parallel sends
    // landed (no order is promised there), and 1's retry after them.
    const [first, ...rest] = names(unordered)
    expect([first, [rest[0], rest[1]].sort(), rest[2]]).toEqual(['Event 1', ['Event 2', 'Event 3'], 'Event 1'])
    // Each ordered event went only after the previous one's answer.
    for (let i = 2; i < 4; i++) expect(ordered.received[i].at).toBeGreaterThanOrEqual(ordered.received[i - 1].at)
  })

  it('a given-up event releases the next one; records are independent of each other', async () => {
    const hook = await register(ordered.url, 'per_record')
    ordered.fallback = 500
    const a = await createVia(admin, 'account', { name: 'A1' })
    await ordered.waitFor(1)
    await admin.request({ method: 'PATCH', url: `/api/v1/accounts/${a.id}`, payload: { name: 'A2' } })
    ordered.fallback = 200
    // Another record is not held up by A's failing event.
    await createVia(admin, 'account', { name: 'B1' })
    await ordered.waitFor(2)
    expect(ordered.received.map((x) => JSON.parse(x.body).data.object.name)).toEqual(['A1', 'B1'])
    // A1 fails every attempt of the schedule (5 s ... 10 h): once given up, A2 goes.
    ordered.fallback = 500
    const attemptsOfA1 = async () => {
      const log = json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries` })).data
      return log.find((d: any) => d.payload.data.object.name === 'A1').attempts.length
    }
    for (const seconds of [5, 300, 1800, 7200, 18000, 36000]) {
      const before = ordered.received.length
      // The retry time is counted from the failure's record: move the clock only once it is written.
      for (let i = 0; i < 200 && (await attemptsOfA1()) < before - 1; i++) await new Promise((r) => setTimeout(r, 20))
      // The last attempt of A1 fails too; what follows it (A2) succeeds.
      if (seconds === 36000) {
        ordered.replies.push(500)
        ordered.fallback = 200
      }
      clock.advance(seconds)
      app.webhookDispatcher!.wake()
      await ordered.waitFor(before + 1)
    }
    await ordered.waitFor(9)
    expect(ordered.received.map((x) => JSON.parse(x.body).data.object.name)).toEqual(['A1', 'B1', 'A1', 'A1', 'A1', 'A1', 'A1', 'A1', 'A2'])
    // Successes are written a turn after their receipt.
    let log: any[] = []
    for (let i = 0; i < 100 && !(log.length === 3 && log.every((d) => d.status !== 'pending')); i++) {
      await new Promise((r) => setTimeout(r, 30))
      log = json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries` })).data
    }
    expect(log.map((d: any) => [d.payload.data.object.name, d.status]).sort()).toEqual([
      ['A1', 'failed'],
      ['A2', 'succeeded'],
      ['B1', 'succeeded'],
    ])
  })

  it('switching an endpoint to per_record orders what is already queued', async () => {
    const hook = await register(ordered.url)
    ordered.replies.push(500)
    const a = await createVia(admin, 'account', { name: 'Q1' })
    await ordered.waitFor(1)
    const patched = await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${hook.id}`, payload: { ordering: 'per_record' } })
    expect(json(patched).ordering).toBe('per_record')
    await admin.request({ method: 'PATCH', url: `/api/v1/accounts/${a.id}`, payload: { name: 'Q2' } })
    await new Promise((r) => setTimeout(r, 600))
    expect(ordered.received).toHaveLength(1)
    clock.advance(5)
    app.webhookDispatcher!.wake()
    await ordered.waitFor(3)
    expect(ordered.received.map((x) => JSON.parse(x.body).data.object.name)).toEqual(['Q1', 'Q1', 'Q2'])
  })
})

const reachable = await isPostgresReachable()

describe.runIf(reachable)('webhook order per record with concurrent claimers on PostgreSQL', () => {
  let tdb: TestDatabase
  let app: FastifyInstance
  const pools: Database[] = []

  beforeAll(async () => {
    tdb = await createTestDatabase('postgres')
    // Queues only: the test's own claimers are the dispatchers.
    app = await buildApp({ config: testConfig({ ALLOW_PRIVATE_OUTBOUND: 'true', SERVICE_ROLE: 'web' }), database: tdb.database, logger: false })
    await app.ready()
    for (let i = 0; i < 4; i++) pools.push(await openPostgres(tdb.url!, { max: 2 }))
  })
  afterAll(async () => {
    for (const p of pools) await p.close()
    await app?.close()
    await tdb?.drop()
  })

  it('four claimers with failures, retries and give-ups never hand out an event before the earlier ones of its record are finished', async () => {
    const admin = await createOrgWithAdmin(app)
    const res = await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'http://127.0.0.1:9/never', events: ['account.created', 'account.updated'], ordering: 'per_record' } })
    expect(res.statusCode, res.body).toBe(201)
    const RECORDS = 12
    const UPDATES = 5
    const records = await Promise.all(Array.from({ length: RECORDS }, (_, i) => createVia(admin, 'account', { name: `R${i} v0` })))
    for (let v = 1; v <= UPDATES; v++) {
      await Promise.all(records.map((r, i) => admin.request({ method: 'PATCH', url: `/api/v1/accounts/${r.id}`, payload: { name: `R${i} v${v}` } })))
    }
    // Each record's events in their order, as the journal has them.
    const db = tdb.database.db as Kysely<DB>
    const rows = await sql<{ record_id: string; event_id: string }>`SELECT record_id, event_id FROM webhook_deliveries ORDER BY record_id, event_id`.execute(db)
    const order = new Map<string, string[]>()
    for (const r of rows.rows) order.set(r.record_id, [...(order.get(r.record_id) ?? []), r.event_id])
    expect(order.size).toBe(RECORDS)
    expect(rows.rows).toHaveLength(RECORDS * (UPDATES + 1))

    const finished = new Set<string>()
    const inFlight = new Set<string>()
    const violations: string[] = []
    const sentOrder = new Map<string, string[]>()
    const random = Math.random

    const claimer = async (pool: Database) => {
      for (let idle = 0; idle < 40; ) {
        const now = new Date()
        const claimed: ClaimedDelivery[] = await claimDueDeliveries(pool.db, now, new Date(now.getTime() + 15_000), 4)
        if (claimed.length === 0) {
          idle++
          await new Promise((r) => setTimeout(r, 10))
          continue
        }
        idle = 0
        await Promise.all(
          claimed.map(async (d) => {
            const record = d.record_id!
            const earlier = order.get(record)!.slice(0, order.get(record)!.indexOf(d.event_id))
            if (inFlight.has(record)) violations.push(`${d.event_id} handed out while another event of ${record} was in flight`)
            const unfinished = earlier.filter((e) => !finished.has(e))
            if (unfinished.length > 0) violations.push(`${d.event_id} handed out before ${unfinished.join(', ')} finished`)
            inFlight.add(record)
            sentOrder.set(record, [...(sentOrder.get(record) ?? []), d.event_id])
            await new Promise((r) => setTimeout(r, random() * 8))
            const fails = random() < 0.3
            const givesUp = fails && d.attempt_count >= 3
            inFlight.delete(record)
            if (!fails || givesUp) finished.add(d.event_id)
            const at = new Date()
            const outcome = !fails ? { status: 'succeeded' as const } : givesUp ? { status: 'failed' as const } : { status: 'pending' as const, nextAttemptAt: new Date(at.getTime() + 20) }
            await recordAttempt(pool.db, d, { startedAt: at, statusCode: fails ? 500 : 200, latencyMs: 1, error: fails ? 'boom' : null, responseBody: null, outcome }, at)
          }),
        )
      }
    }
    await Promise.all(pools.map(claimer))

    expect(violations).toEqual([])
    expect(finished.size).toBe(RECORDS * (UPDATES + 1))
    for (const [record, events] of order) {
      // First sends in event order (a retried event repeats itself, never an earlier one).
      const firsts = [...new Set(sentOrder.get(record))]
      expect(firsts).toEqual(events)
    }
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`.execute(db)
    expect(left.rows[0].n).toBe(0)
  })
})
