/**
 * A primary failover under write load (src/db/primary-failover.ts): DATABASE_URL names both hosts of
 * a real primary/standby pair. While four writers send keyed batch creates (Idempotency-Key) and a
 * webhook subscriber listens on loopback, the old primary is stopped (fast shutdown: what it
 * committed is streamed to the standby first) and the standby promoted with `pg_ctl promote`: the
 * operator's order, since promoting first would let the old primary take writes the new one never
 * sees. Then: requests failed only with a retryable 503 (with Retry-After) for a few seconds, the
 * journal has no gap, every event was delivered, and no retried key wrote twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { openPostgres, type Database } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { buildTestApp, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { clustersAvailable, startReplicaCluster, waitFor, type ReplicaCluster } from '../helpers/replica-cluster.ts'
import { startReceiver, type Receiver } from '../webhooks/receiver.ts'

const WRITERS = 4
const BATCHES_PER_WRITER = 25
const RECORDS_PER_BATCH = 5

describe.skipIf(!clustersAvailable())('failover to a promoted standby under write load', () => {
  let cluster: ReplicaCluster
  let database: Database
  let app: FastifyInstance
  let admin: Member
  let receiver: Receiver

  beforeAll(async () => {
    cluster = await startReplicaCluster()
    const { primary, standby } = cluster
    database = await openPostgres(`postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/${cluster.database}?target_session_attrs=read-write`)
    await migrateToLatest(database)
    // A short lease: a key claimed just before the primary was lost is released by the service as
    // soon as the new primary answers; the lease only bounds the case where that fails too.
    app = await buildTestApp(database, { ALLOW_PRIVATE_OUTBOUND: 'true', IDEMPOTENCY_LEASE_SECONDS: '6' })
    admin = await createOrgWithAdmin(app)
    receiver = await startReceiver()
    const hook = await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url, events: ['account.created'] } })
    expect(hook.statusCode, hook.body).toBe(201)
  }, 90_000)

  afterAll(async () => {
    await app?.close()
    await database?.close()
    await receiver?.close()
    await cluster?.close()
  })

  it('fails only with 503 + Retry-After for a few seconds, loses no event, delivers every one, writes each key once', async () => {
    const failures: { status: number; retryAfter: string | undefined; code: string; at: number }[] = []
    const retriedKeys = new Set<string>()
    let done = 0

    const writer = async (w: number) => {
      for (let b = 0; b < BATCHES_PER_WRITER; b++) {
        const key = `w${w}-b${b}`
        const records = Array.from({ length: RECORDS_PER_BATCH }, (_, i) => ({ name: `${key}-r${i}` }))
        for (let attempt = 0; ; attempt++) {
          const res = await admin.request({ method: 'POST', url: '/api/v1/accounts/batch', headers: { 'idempotency-key': key }, payload: { operation: 'create', records } })
          if (res.statusCode === 200 || res.statusCode === 201) break
          failures.push({ status: res.statusCode, retryAfter: res.headers['retry-after'] as string | undefined, code: json(res).code, at: Date.now() })
          retriedKeys.add(key)
          if (attempt > 200) throw new Error(`key ${key} never succeeded: ${res.statusCode} ${res.body}`)
          // A client honouring Retry-After would wait a second; sooner keeps the test short.
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        done++
      }
    }
    const load = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)))

    await waitFor('writes under way', () => done >= 12)
    const failoverStarted = Date.now()
    await cluster.primary.stop()
    await cluster.standby.promote()
    await load
    const total = WRITERS * BATCHES_PER_WRITER * RECORDS_PER_BATCH

    // Only retryable answers, and only for a few seconds after the primary went away.
    for (const f of failures) {
      expect([503, 409], JSON.stringify(f)).toContain(f.status)
      expect(f.retryAfter, JSON.stringify(f)).toMatch(/^\d+$/)
      expect(f.status === 503 ? 'database_unavailable' : 'idempotency_key_in_use').toBe(f.code)
    }
    expect(failures.filter((f) => f.status === 503).length).toBeGreaterThan(0)
    const failingFor = Math.max(...failures.map((f) => f.at)) - failoverStarted
    expect(failingFor).toBeLessThan(10_000)

    // Each key wrote once: every name exactly once, the count exactly the records sent.
    const names = await sql<{ name: string; n: number }>`SELECT name, count(*)::int AS n FROM accounts WHERE org_id = ${admin.orgId} GROUP BY name`.execute(database.db)
    expect(names.rows.filter((r) => r.n !== 1)).toEqual([])
    expect(names.rows.length).toBe(total)

    // The journal: one account.created per record, numbered 1..N without a gap.
    await waitFor('every event numbered', async () => {
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM events WHERE org_id = ${admin.orgId} AND seq IS NULL`.execute(database.db)
      return r.rows[0].n === 0
    })
    const seqs = (await sql<{ seq: string; type: string }>`SELECT seq::text AS seq, type FROM events WHERE org_id = ${admin.orgId} ORDER BY events.seq`.execute(database.db)).rows
    expect(seqs.filter((e) => e.type === 'account.created').length).toBe(total)
    expect(seqs.map((e) => Number(e.seq))).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1))

    // Every event delivered (at least once: a delivery cut by the failover may be sent again).
    await waitFor('every delivery', () => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size >= total, 60_000)
    const delivered = new Set(receiver.received.map((r) => (JSON.parse(r.body) as { data: { object: { name: string } } }).data.object.name))
    expect(delivered.size).toBe(total)
    expect(retriedKeys.size).toBeGreaterThan(0)
  }, 180_000)
})
