/**
 * The dispatcher's outcome writer alone, on both databases, with no dispatcher running
 * (SERVICE_ROLE=web) and no HTTP exchange: the test claims through the writer and hands it attempt
 * outcomes, then reads the delivery log and the endpoint through the API. Successes wait for a turn
 * to write them; a failure is written at once with its retry time; 410 Gone disables the endpoint;
 * filtered and disabled-before-sending outcomes; a webhook deleted mid-flight is not a fault.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { pino } from 'pino'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'
import { ManualClock } from '../../src/shared/clock.ts'
import type { Attempt } from '../../src/webhooks/delivery-attempt.ts'
import { OutcomeWriter } from '../../src/webhooks/outcome-writer.ts'
import { RETRY_DELAYS_SECONDS } from '../../src/webhooks/retry-policy.ts'

describe.each(await targets())('webhook outcome writer on %s', (target) => {
  // Ahead of real time, so rows written at real "now" are due.
  const clock = new ManualClock(Date.now() + 3600_000)
  const t = appPerFile(target, { ALLOW_PRIVATE_OUTBOUND: 'true', SERVICE_ROLE: 'web' }, clock)
  let admin: Member
  let logged: Array<{ level: number; msg: string }>
  let wakes: number
  let writesAsked: number
  let writer: OutcomeWriter

  beforeEach(async () => {
    admin = await createOrgWithAdmin(t.app)
    logged = []
    wakes = 0
    writesAsked = 0
    const log = pino({ level: 'debug' }, { write: (line: string) => void logged.push(JSON.parse(line)) })
    writer = new OutcomeWriter({ db: t.app.db, clock, log, wake: () => void wakes++, writeSoon: () => void writesAsked++ })
  })

  async function queuedDelivery(webhook: Record<string, unknown> = {}) {
    const res = await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'http://127.0.0.1:9/hook', events: ['account.created'], ...webhook } })
    expect(res.statusCode, res.body).toBe(201)
    const hook = json(res)
    await createVia(admin, 'account')
    const turn = await writer.writeSuccessesAndClaim(10)
    expect(turn?.claimed).toHaveLength(1)
    return { hook, delivery: turn!.claimed[0] }
  }
  const deliveries = async (hookId: string) => json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hookId}/deliveries` })).data
  const webhook = async (hookId: string) => json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hookId}` }))
  const answered = (statusCode: number | null, error: string | null = null): Attempt => ({ startedAt: clock.now(), statusCode, latencyMs: 3, error, responseBody: statusCode === null ? null : 'ok' })

  it('has nothing to do when nothing waits and nothing is to be claimed', async () => {
    expect(await writer.writeSuccessesAndClaim(0)).toBeNull()
  })

  it('holds a success until a turn writes it, then the delivery has succeeded', async () => {
    const { hook, delivery } = await queuedDelivery({ ordering: 'per_record' })
    let done = false
    const written = writer.write(delivery, answered(200)).then(() => void (done = true))
    await new Promise((r) => setTimeout(r, 50))
    expect([done, writer.successesWaiting, writesAsked]).toEqual([false, 1, 1])
    expect((await deliveries(hook.id))[0].status).toBe('pending') // still leased

    const turn = await writer.writeSuccessesAndClaim(0)
    expect(turn).toEqual({ claimed: [], releasedOrdered: true })
    await written
    expect(writer.successesWaiting).toBe(0)
    const [log] = await deliveries(hook.id)
    expect(log.status).toBe('succeeded')
    expect(log.attempts).toMatchObject([{ attempt: 1, status_code: 200 }])
  })

  it('writes a failure at once with the first retry delay and marks the endpoint failing', async () => {
    const { hook, delivery } = await queuedDelivery()
    await writer.write(delivery, answered(500, 'The receiver answered 500.'))
    const [log] = await deliveries(hook.id)
    expect(log).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: 500, last_error: 'The receiver answered 500.' })
    expect(Date.parse(log.next_attempt_at) - clock.now().getTime()).toBe(RETRY_DELAYS_SECONDS[0] * 1000)
    expect(writesAsked).toBe(0)
    const failing = await sql<{ failing_since: Date | null }>`SELECT failing_since FROM webhooks WHERE id = ${hook.id}`.execute(t.app.db)
    expect(failing.rows[0].failing_since).not.toBeNull()
  })

  it('disables the endpoint on 410 Gone and fails the delivery', async () => {
    const { hook, delivery } = await queuedDelivery()
    await writer.write(delivery, answered(410, 'The receiver answered 410.'))
    expect((await deliveries(hook.id))[0].status).toBe('failed')
    const w = await webhook(hook.id)
    expect(w.status).toBe('disabled')
    expect(w.disabled_reason).toMatch(/410 Gone/)
    expect(logged.some((l) => l.level === 40 && /webhook disabled/.test(l.msg))).toBe(true)
  })

  it('writes a filtered delivery and wakes the dispatcher for an ordered record', async () => {
    const { hook, delivery } = await queuedDelivery({ ordering: 'per_record' })
    await writer.write(delivery, 'filtered')
    expect((await deliveries(hook.id))[0].status).toBe('filtered')
    expect(wakes).toBe(1)
  })

  it('fails a delivery whose endpoint was disabled before it was sent', async () => {
    const { hook, delivery } = await queuedDelivery()
    await writer.write(delivery, null)
    const [log] = await deliveries(hook.id)
    expect(log.status).toBe('failed')
    expect(log.attempts[0]).toMatchObject({ status_code: null, error: 'The endpoint was disabled before this delivery was sent.' })
  })

  it('drops the outcome of a delivery whose webhook was deleted mid-flight, without an error', async () => {
    const { hook, delivery } = await queuedDelivery()
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/webhooks/${hook.id}` })).statusCode).toBe(204)
    await writer.write(delivery, answered(500, 'The receiver answered 500.'))
    expect(logged.filter((l) => l.level >= 50)).toEqual([])
    expect(logged.some((l) => /deleted while a delivery was in flight/.test(l.msg))).toBe(true)
  })
})
