/**
 * Retries and endpoint health with an injectable clock: 500 then 200, a receiver that times out, a
 * refused connection, 410 Gone, and an endpoint failing for a day being disabled and re-enabled.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { targets, createTestDatabase, type TestDatabase } from '../helpers/databases.ts'
import { createOrgWithAdmin, json, testConfig, type Member } from '../helpers/build-app.ts'
import { freePort } from '../helpers/live-service.ts'
import { createVia } from '../helpers/samples.ts'
import { buildApp } from '../../src/app.ts'
import { ManualClock } from '../../src/shared/clock.ts'
import { RETRY_DELAYS_SECONDS } from '../../src/webhooks/retry-policy.ts'
import { startReceiver, type Receiver } from './receiver.ts'

describe.each(await targets())('webhook retries on %s', (target) => {
  let tdb: TestDatabase
  let app: FastifyInstance
  let clock: ManualClock
  let receiver: Receiver
  let admin: Member

  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    // Ahead of real time, so rows written at real "now" are due, while retries wait for the test to move it.
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

  async function register(url = receiver.url) {
    const res = await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url, events: ['account.created'] } })
    expect(res.statusCode, res.body).toBe(201)
    return json(res)
  }
  const deliveries = async (hookId: string) => json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hookId}/deliveries` })).data
  async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const v = await what()
      if (ok(v)) return v
      if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(v).slice(0, 500)}`)
      await new Promise((r) => setTimeout(r, 30))
    }
  }
  // The attempt row and the delivery's new state are written by one statement, so they agree.
  const attempts = (hookId: string, n: number) => until(() => deliveries(hookId), (d) => d[0]?.attempts.length >= n)
  const retryNow = (seconds: number) => {
    clock.advance(seconds)
    app.webhookDispatcher!.wake()
  }

  it('retries a 500 after 5 s with the same webhook-id, then succeeds', async () => {
    receiver.replies.push(500)
    const hook = await register()
    await createVia(admin, 'account')
    const [first] = await attempts(hook.id, 1)
    expect(first.status).toBe('pending')
    expect(first.attempts[0]).toMatchObject({ attempt: 1, status_code: 500, error: 'The receiver answered 500.' })
    expect(Date.parse(first.next_attempt_at) - Date.parse(first.attempts[0].started_at)).toBe(RETRY_DELAYS_SECONDS[0] * 1000)

    retryNow(4)
    await new Promise((r) => setTimeout(r, 300))
    expect(receiver.received).toHaveLength(1) // not due yet
    retryNow(1)
    const [done] = await until(() => deliveries(hook.id), (d) => d[0].status === 'succeeded')
    expect(done.attempts.map((a: any) => a.status_code)).toEqual([500, 200])
    expect(done.attempt_count).toBe(2)
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([done.event_id, done.event_id])
    expect(receiver.received[0].body).toBe(receiver.received[1].body)
  })

  it('counts a receiver slower than 10 s as a failed attempt', async () => {
    receiver.replies.push({ status: 200, delayMs: 12_000 })
    const hook = await register()
    await createVia(admin, 'account')
    const [d] = await until(() => deliveries(hook.id), (x) => x[0]?.attempts.length === 1, 20_000)
    expect(d.status).toBe('pending')
    expect(d.attempts[0].status_code).toBeNull()
    expect(d.attempts[0].error).toMatch(/timed out after 10000 ms/)
    expect(d.attempts[0].latency_ms).toBeGreaterThanOrEqual(9_900)
    expect(d.attempts[0].latency_ms).toBeLessThan(11_500)
  })

  it('records a refused connection and tries again later', async () => {
    const hook = await register(`http://127.0.0.1:${await freePort()}/nobody-home`)
    await createVia(admin, 'account')
    const [d] = await until(() => deliveries(hook.id), (x) => x[0]?.attempts.length === 1)
    expect(d.status).toBe('pending')
    expect(d.attempts[0].error).toMatch(/ECONNREFUSED/)
  })

  it('a dropped connection is a failed attempt too', async () => {
    receiver.replies.push('drop')
    const hook = await register()
    await createVia(admin, 'account')
    const [d] = await until(() => deliveries(hook.id), (x) => x[0]?.attempts.length === 1)
    expect(d.status).toBe('pending')
    expect(d.attempts[0].error).toMatch(/socket hang up|ECONNRESET/)
  })

  it('disables the endpoint at once on 410 Gone, failing what was still queued', async () => {
    receiver.fallback = { status: 410, delayMs: 200 }
    const hook = await register()
    await createVia(admin, 'account')
    const after = await until(async () => json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}` })), (w) => w.status === 'disabled')
    expect(after.disabled_reason).toMatch(/410 Gone/)
    expect(after.disabled_at).toBeTruthy()
    // While disabled, changes queue nothing and retries are refused.
    await createVia(admin, 'account')
    const log = await deliveries(hook.id)
    expect(log).toHaveLength(1)
    expect(log[0].status).toBe('failed')
    const retry = await admin.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/deliveries/${log[0].id}/retry` })
    expect(retry.statusCode).toBe(409)
  })

  it('walks the whole schedule, gives up, disables a day-long failure, and is re-enabled with one PATCH', async () => {
    receiver.fallback = 500
    const hook = await register()
    await createVia(admin, 'account')
    await attempts(hook.id, 1)
    for (const [i, delay] of RETRY_DELAYS_SECONDS.entries()) {
      retryNow(delay)
      await until(() => deliveries(hook.id), (d) => d[0].attempts.length === i + 2)
    }
    const [gaveUp] = await until(() => deliveries(hook.id), (d) => d[0].status === 'failed')
    expect(gaveUp.attempt_count).toBe(RETRY_DELAYS_SECONDS.length + 1)
    const starts = gaveUp.attempts.map((a: any) => Date.parse(a.started_at))
    expect(starts.slice(1).map((t: number, i: number) => Math.round((t - starts[i]) / 1000))).toEqual([...RETRY_DELAYS_SECONDS])
    let w = json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}` }))
    expect(w.status).toBe('active') // 17.6 h of failures is not yet a day
    expect(w.delivery_stats).toMatchObject({ failed: 1, pending: 0, succeeded: 0 })

    clock.advance(7 * 3600)
    await createVia(admin, 'account')
    w = await until(async () => json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}` })), (x) => x.status === 'disabled')
    expect(w.disabled_reason).toMatch(/failed for more than 24 hours/)

    receiver.fallback = 200
    const enabled = await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${hook.id}`, payload: { status: 'active' } })
    expect(enabled.statusCode).toBe(200)
    expect(json(enabled)).toMatchObject({ status: 'active', disabled_reason: null, disabled_at: null })
    const retried = await admin.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/deliveries/${gaveUp.id}/retry` })
    expect(retried.statusCode).toBe(202)
    expect(json(retried).status).toBe('pending')
    const log = await until(() => deliveries(hook.id), (d) => d.find((x: any) => x.id === gaveUp.id)?.status === 'succeeded')
    expect(log.find((x: any) => x.id === gaveUp.id).attempts.at(-1).status_code).toBe(200)
  })
})
