/**
 * Replays (docs/webhooks.md, Replay): `POST /webhooks/{id}/replay {since}` sends the journal's events
 * again through the normal delivery path (signed, logged with replay_id, redacted, filtered), with
 * progress on the webhook; the errors (400, 409, 410); and on PostgreSQL, several processes sharing
 * one replay's steps, a crash in the middle of a step, and the pacing that keeps a replay from
 * flooding the queue.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import crypto from 'node:crypto'
import { createTestDatabase, isPostgresReachable, targets, type TestDatabase } from '../helpers/databases.ts'
import { createOrgWithAdmin, json, testConfig, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'
import { buildApp } from '../../src/app.ts'
import { openPostgres, type Database } from '../../src/db/connect.ts'
import { pruneEvents, sequencePending } from '../../src/events/index.ts'
import { ManualClock } from '../../src/shared/clock.ts'
import { uuidv7 } from '../../src/shared/ids.ts'
import { journalEvents } from '../../src/events/journal-writer.ts'

/** Events written straight to the journal, as a test's own author. */
const testAuthor = { actor: { user_id: null, client_id: null, channel: 'system' as const }, operationId: '01900000-0000-7000-8000-000000000000' }
import { claimRunningReplay, queueReplayChunk } from '../../src/webhooks/replay/replay.repository.ts'
import { REPLAY_CHUNK, REPLAY_MAX_PENDING, replayStep } from '../../src/webhooks/replay/replay-step.ts'
import { startReceiver, type Receiver } from './receiver.ts'

const SECRET = 'whsec_' + Buffer.alloc(32, 7).toString('base64')

describe.each(await targets())('webhook replay on %s', (target) => {
  let tdb: TestDatabase
  let app: FastifyInstance
  let clock: ManualClock
  let receiver: Receiver
  let admin: Member

  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    clock = new ManualClock(Date.now() + 3600_000)
    app = await buildApp({ config: testConfig({ ALLOW_PRIVATE_OUTBOUND: 'true' }), database: tdb.database, logger: false, clock })
    await app.ready()
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
    await app?.close()
    await tdb?.drop()
  })
  beforeEach(async () => {
    await tdb.reset()
    receiver.received.length = 0
    receiver.replies.length = 0
    receiver.fallback = 200
    admin = await createOrgWithAdmin(app)
  })

  async function register(payload: Record<string, unknown> = {}) {
    const res = await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url, events: ['account.created', 'opportunity.created'], secret: SECRET, ...payload } })
    expect(res.statusCode, res.body).toBe(201)
    return json(res)
  }
  const replay = (id: string, since: unknown) => admin.request({ method: 'POST', url: `/api/v1/webhooks/${id}/replay`, payload: { since } })
  const webhook = async (id: string) => json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${id}` }))
  async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const v = await what()
      if (ok(v)) return v
      if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(v).slice(0, 800)}`)
      await new Promise((r) => setTimeout(r, 30))
    }
  }
  /** Some history: 3 accounts, 2 opportunities, 1 update, all numbered in the feed. */
  async function history() {
    for (const name of ['A1', 'A2', 'A3']) await createVia(admin, 'account', { name })
    const o = await createVia(admin, 'opportunity', { name: 'O1', amount: '1200.00' })
    await createVia(admin, 'opportunity', { name: 'O2', amount: '99.00' })
    await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${o.id}`, payload: { name: 'O1b' } })
    await sequencePending(app.db)
    return json(await admin.request({ method: 'GET', url: '/api/v1/events?limit=100' })).data as Array<{ id: string; seq: number; type: string; timestamp: string; data: any }>
  }

  it('redelivers every subscribed event since a seq through the normal path, signed and logged, with progress', async () => {
    const feed = await history()
    expect(feed.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6])
    const hook = await register()
    expect(hook.replay).toBeNull()

    const res = await replay(hook.id, 2)
    expect(res.statusCode, res.body).toBe(202)
    expect(json(res)).toMatchObject({ since_seq: 2, since_time: null, from_seq: 2, through_seq: 6, total: 5 })
    await receiver.waitFor(4)
    const expected = feed.filter((e) => e.seq >= 2 && e.type !== 'opportunity.updated')
    // Signed as Standard Webhooks signs (the clock runs an hour ahead, so the library's freshness check would refuse it).
    const key = Buffer.from(SECRET.slice(6), 'base64')
    for (const r of receiver.received) {
      const signed = crypto.createHmac('sha256', key).update(`${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.body}`).digest('base64')
      expect(r.headers['webhook-signature']).toBe(`v1,${signed}`)
    }
    const got = receiver.received.map((r) => JSON.parse(r.body))
    expect(got.map((e) => e.id).sort()).toEqual(expected.map((e) => e.id).sort())
    // The body is the event as first sent (same webhook-id, same timestamp), amounts included.
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual(expected.map((e) => e.id).sort())
    expect(got.find((e) => e.data.object.name === 'O1').data.object.amount).toBe('1200.00')

    const done = await until(() => webhook(hook.id), (w) => w.replay.deliveries.succeeded === 4)
    expect(done.replay).toMatchObject({ status: 'completed', from_seq: 2, through_seq: 6, position: 6, total: 5, examined: 5, queued: 4, deliveries: { pending: 0, succeeded: 4, failed: 0, filtered: 0 } })
    expect(done.replay.finished_at).not.toBeNull()
    const log = json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries` })).data
    expect(log).toHaveLength(4)
    expect(log.every((d: any) => d.replay_id === done.replay.id && d.status === 'succeeded')).toBe(true)
    // Live deliveries carry no replay id.
    await createVia(admin, 'account', { name: 'Live' })
    await receiver.waitFor(5)
    const liveOne = async () => json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries` })).data.find((d: any) => d.payload.data.object.name === 'Live')
    const live = await until(liveOne, (d) => d?.status === 'succeeded')
    expect(live.replay_id).toBeNull()
  })

  it('replays since a time, redacts amounts for an endpoint without erp:read, and applies the filter', async () => {
    const feed = await history()
    const hook = await register({ filter: { field: 'name', in: ['A3', 'O1', 'O2'] } })
    await sql`UPDATE webhooks SET include_amounts = false WHERE id = ${hook.id}`.execute(app.db)
    // Since the third event's time: A3, O1 and O2 (A1 and A2 are older; the filter keeps all three).
    const res = await replay(hook.id, feed[2].timestamp)
    expect(res.statusCode, res.body).toBe(202)
    expect(json(res).since_time).toBe(feed[2].timestamp)
    await receiver.waitFor(3)
    const bodies = receiver.received.map((r) => JSON.parse(r.body))
    expect(bodies.map((b) => b.data.object.name).sort()).toEqual(['A3', 'O1', 'O2'])
    expect(bodies.filter((b) => b.type === 'opportunity.created').map((b) => b.data.object.amount)).toEqual([null, null])

    // A filter that keeps only O2: queued counts what passed it.
    await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${hook.id}`, payload: { filter: { field: 'name', eq: 'O2' } } })
    const again = await replay(hook.id, 1)
    expect(again.statusCode, again.body).toBe(202)
    const done = await until(() => webhook(hook.id), (w) => w.replay.id === json(again).id && w.replay.status === 'completed')
    expect(done.replay).toMatchObject({ queued: 1, examined: 6, total: 6 })
    await receiver.waitFor(4)
    expect(JSON.parse(receiver.received[3].body).data.object.name).toBe('O2')
  })

  it('answers 400 for a bad since, 409 for a disabled endpoint, 410 past the retention period', async () => {
    const feed = await history()
    const hook = await register()
    for (const [since, message] of [
      ['yesterday', /seq or an RFC 3339 time/],
      [0, /1 or more/],
      [7, /beyond the newest event \(seq 6\)/],
      [new Date(clock.now().getTime() + 86400_000).toISOString(), /in the future/],
      [true, /must be integer,string|must be/],
    ] as const) {
      const res = await replay(hook.id, since)
      expect(res.statusCode, String(since)).toBe(400)
      expect(json(res).errors[0].field).toBe('since')
      expect(json(res).detail + JSON.stringify(json(res).errors)).toMatch(message)
    }
    expect((await admin.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/replay`, payload: {} })).statusCode).toBe(400)
    // Another organization's webhook does not exist for this one.
    const stranger = await createOrgWithAdmin(app, 'Other')
    expect((await stranger.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/replay`, payload: { since: 1 } })).statusCode).toBe(404)

    await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${hook.id}`, payload: { status: 'disabled' } })
    const disabled = await replay(hook.id, 1)
    expect(disabled.statusCode).toBe(409)
    await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${hook.id}`, payload: { status: 'active' } })

    // Everything up to now ages out; a newer event stays.
    await pruneEvents(app.db, new Date(Date.now() + 31 * 86400_000), 30)
    await createVia(admin, 'account', { name: 'After pruning' })
    await sequencePending(app.db)
    for (const since of [1, feed[0].timestamp]) {
      const gone = await replay(hook.id, since)
      expect(gone.statusCode, gone.body).toBe(410)
      expect(json(gone)).toMatchObject({ code: 'events_expired', oldest_seq: 7 })
    }
    const ok = await replay(hook.id, 7)
    expect(ok.statusCode, ok.body).toBe(202)
    await receiver.waitFor(1)
    expect(JSON.parse(receiver.received[0].body).data.object.name).toBe('After pruning')
  })

  // Last in this file: it stops the app's replay runner to hold a replay at "running".
  it('allows one running replay per endpoint, shows it running, and cancels it when the endpoint is disabled', async () => {
    await history()
    const hook = await register()
    await app.webhookReplays!.stop()
    const first = await replay(hook.id, 1)
    expect(first.statusCode).toBe(202)
    expect(json(first)).toMatchObject({ status: 'running', position: 0, examined: 0, queued: 0, total: 6 })
    const second = await replay(hook.id, 3)
    expect(second.statusCode).toBe(409)
    expect(json(second).code).toBe('replay_in_progress')
    expect((await webhook(hook.id)).replay).toMatchObject({ id: json(first).id, status: 'running' })
    await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${hook.id}`, payload: { status: 'disabled' } })
    expect((await webhook(hook.id)).replay).toMatchObject({ status: 'canceled', status_reason: 'The endpoint was disabled.' })
  })
})

const reachable = await isPostgresReachable()

describe.runIf(reachable)('webhook replay steps shared by several processes on PostgreSQL', () => {
  let tdb: TestDatabase
  let app: FastifyInstance
  const pools: Database[] = []

  beforeAll(async () => {
    tdb = await createTestDatabase('postgres')
    // No background work in this app: the test's own pools are the processes.
    app = await buildApp({ config: testConfig({ ALLOW_PRIVATE_OUTBOUND: 'true', SERVICE_ROLE: 'web' }), database: tdb.database, logger: false })
    await app.ready()
    for (let i = 0; i < 4; i++) pools.push(await openPostgres(tdb.url!, { max: 2 }))
  })
  afterAll(async () => {
    for (const p of pools) await p.close()
    await app?.close()
    await tdb?.drop()
  })

  it('queues each event once across concurrent steps and a crashed one, paced by the deliveries still pending', async () => {
    const admin = await createOrgWithAdmin(app)
    const EVENTS = 1300
    const events = Array.from({ length: EVENTS }, (_, i) => {
      const id = uuidv7(new Date())
      const recordId = uuidv7(new Date())
      const body = JSON.stringify({ id, type: 'account.created', timestamp: new Date().toISOString(), organization_id: admin.orgId, data: { object: { id: recordId, name: `N${i}` } } })
      return { id, type: 'account.created', recordId, body, redactedBody: body }
    })
    await app.db.transaction().execute((trx) => journalEvents(trx, admin.orgId, testAuthor, events, new Date(), []))
    await sequencePending(app.db)
    const hook = json(await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'http://127.0.0.1:9/never', events: ['account.created'], ordering: 'per_record' } }))
    const started = await admin.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/replay`, payload: { since: 1 } })
    expect(started.statusCode, started.body).toBe(202)

    // A step that dies before its commit: its deliveries and its position vanish together.
    await expect(
      pools[0].db.transaction().execute(async (trx) => {
        const claimed = (await claimRunningReplay(trx, REPLAY_MAX_PENDING))!
        await queueReplayChunk(trx, claimed, [{ eventId: events[0].id, type: 'account.created', recordId: null, body: events[0].body }], REPLAY_CHUNK, REPLAY_CHUNK, new Date())
        throw new Error('process died')
      }),
    ).rejects.toThrow('process died')

    const steps = async (pool: Database) => {
      let queued = 0
      for (let step = await replayStep(pool.db, () => new Date()); !step.idle; step = await replayStep(pool.db, () => new Date())) queued += step.queued
      return queued
    }
    const counted = async () => (await sql<{ n: number; distinct: number }>`SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS distinct FROM webhook_deliveries WHERE replay_id IS NOT NULL`.execute(app.db)).rows[0]
    const firstRound = (await Promise.all(pools.map(steps))).reduce((a, b) => a + b, 0)
    // Two chunks fill the replay's allowance of pending deliveries; it waits for them to be sent.
    expect(firstRound).toBe(REPLAY_MAX_PENDING)
    expect(await counted()).toEqual({ n: REPLAY_MAX_PENDING, distinct: REPLAY_MAX_PENDING })
    const waiting = json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}` })).replay
    expect(waiting).toMatchObject({ status: 'running', position: REPLAY_MAX_PENDING, queued: REPLAY_MAX_PENDING, examined: REPLAY_MAX_PENDING, total: EVENTS })

    await sql`UPDATE webhook_deliveries SET status = 'succeeded' WHERE replay_id IS NOT NULL`.execute(app.db)
    const secondRound = (await Promise.all(pools.map(steps))).reduce((a, b) => a + b, 0)
    expect(secondRound).toBe(EVENTS - REPLAY_MAX_PENDING)
    expect(await counted()).toEqual({ n: EVENTS, distinct: EVENTS })
    const done = json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}` })).replay
    expect(done).toMatchObject({ status: 'completed', position: EVENTS, queued: EVENTS, examined: EVENTS, total: EVENTS })
    // The endpoint is ordered: each replayed delivery carries its record, so order per record holds for replays too.
    const unordered = await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries d WHERE replay_id IS NOT NULL AND record_id IS DISTINCT FROM CAST(CAST(body AS json) -> 'data' -> 'object' ->> 'id' AS uuid)`.execute(app.db)
    expect(unordered.rows[0].n).toBe(0)
  })
})
