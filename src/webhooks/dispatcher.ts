/**
 * Sends due deliveries in the background: woken by NOTIFY when a change commits and by a poll for
 * retries coming due. Claims are leased rows (delivery.repository.ts), so any number of processes
 * can run this against one PostgreSQL and a crash at any point only delays a delivery.
 */
import type { Kysely } from 'kysely'
import type { FastifyBaseLogger } from 'fastify'
import type { DB } from '../db/database.ts'
import type { Clock } from '../shared/clock.ts'
import { guardedRequest, OutboundRefused } from '../shared/outbound/guarded-request.ts'
import type { SecretBox } from '../shared/secret-box.ts'
import { claimDueDeliveries, markEndpointFailing, markEndpointHealthy, recordAttempt, recordSuccesses, type AttemptResult, type ClaimedDelivery, type Success } from './delivery.repository.ts'
import { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_FAILING_SECONDS, isGone, isSuccess, nextAttemptAt } from './retry-policy.ts'
import { deliveryHeaders } from './signing.ts'
import { updateWebhook } from './webhook.repository.ts'

export interface DispatcherOptions {
  db: Kysely<DB>
  box: SecretBox
  clock: Clock
  allowPrivate: boolean
  concurrency: number
  log: FastifyBaseLogger
  /** How often due deliveries are looked for when nothing in this process woke the dispatcher. */
  pollMs?: number
}

export interface Dispatcher {
  /** Look for due deliveries now (NOTIFY and the poll call this; tests too, after moving the clock). */
  wake(): void
  /** Resolves when nothing is being sent or claimed (tests). */
  settled(): Promise<void>
  stop(): Promise<void>
}

/** Response bodies are kept only this far, for the delivery log. */
const KEPT_RESPONSE_BYTES = 1024
// A claim outlives the longest attempt, so a live worker never loses its lease mid-send.
const LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000
// Rows written by other processes (or retries coming due) are found within this.
const DEFAULT_POLL_MS = 250
// Successful attempts are written in batches: up to this many, or after this long.
const SUCCESS_BATCH = 100
const SUCCESS_BATCH_MS = 10
const WAKE_COALESCE_MS = 3

export function startDispatcher(opts: DispatcherOptions): Dispatcher {
  let inFlight = 0
  let draining = false
  let again = false
  let stopped = false
  const idleWaiters: Array<() => void> = []

  // Successes wait here a few milliseconds to be written together; each sender waits for its flush.
  let successes: Array<{ success: Success; done: () => void; failed: (err: unknown) => void }> = []
  let flushTimer: NodeJS.Timeout | null = null
  const flushSuccesses = async () => {
    if (flushTimer) clearTimeout(flushTimer)
    flushTimer = null
    const batch = successes
    successes = []
    if (batch.length === 0) return
    try {
      await recordSuccesses(opts.db, batch.map((b) => b.success), opts.clock.now())
      batch.forEach((b) => b.done())
    } catch (err) {
      batch.forEach((b) => b.failed(err))
    }
  }
  const recordSuccess = (success: Success) =>
    new Promise<void>((done, failed) => {
      successes.push({ success, done, failed })
      if (successes.length >= SUCCESS_BATCH) void flushSuccesses()
      else flushTimer ??= setTimeout(() => void flushSuccesses(), SUCCESS_BATCH_MS)
    })

  const notifyIdle = () => {
    if (inFlight === 0 && !draining) idleWaiters.splice(0).forEach((resolve) => resolve())
  }

  const drain = async () => {
    draining = true
    try {
      do {
        again = false
        while (!stopped) {
          const room = opts.concurrency - inFlight
          if (room <= 0) break
          const now = opts.clock.now()
          const claimed = await claimDueDeliveries(opts.db, now, new Date(now.getTime() + LEASE_MS), room)
          for (const delivery of claimed) {
            inFlight++
            void deliver(delivery)
              .catch((err) => opts.log.error({ err, delivery: delivery.id }, 'webhook delivery bookkeeping failed; the lease will bring it back'))
              .finally(() => {
                inFlight--
                // Refill in batches rather than one claim per finished delivery.
                if (inFlight <= opts.concurrency / 2) wake()
                notifyIdle()
              })
          }
          if (claimed.length < room) break
        }
      } while (again && !stopped)
    } catch (err) {
      opts.log.warn({ err }, 'claiming webhook deliveries failed; retrying at the next poll')
    } finally {
      draining = false
      notifyIdle()
    }
  }

  // Commits arrive one by one; waiting a moment lets one claim take several of them.
  let wakeTimer: NodeJS.Timeout | null = null
  function wake(): void {
    if (stopped) return
    if (draining) {
      again = true
      return
    }
    wakeTimer ??= setTimeout(() => {
      wakeTimer = null
      if (draining) again = true
      else void drain()
    }, WAKE_COALESCE_MS)
  }

  async function deliver(d: ClaimedDelivery): Promise<void> {
    const startedAt = opts.clock.now()
    if (d.webhook_status !== 'active') {
      await recordAttempt(opts.db, d, { startedAt, statusCode: null, latencyMs: 0, error: 'The endpoint was disabled before this delivery was sent.', responseBody: null, outcome: { status: 'failed' } }, startedAt)
      return
    }
    const secret = d.secret_sealed ? opts.box.open(d.secret_sealed) : null
    const headers = deliveryHeaders(d.event_id, Math.floor(startedAt.getTime() / 1000), d.body, secret)
    const t0 = performance.now()
    let statusCode: number | null = null
    let error: string | null = null
    let responseBody: string | null = null
    try {
      const res = await guardedRequest(d.url, { allowPrivate: opts.allowPrivate, method: 'POST', headers, body: d.body, timeoutMs: DELIVERY_TIMEOUT_MS, maxBodyBytes: KEPT_RESPONSE_BYTES, keepAlive: true })
      statusCode = res.status
      responseBody = res.body.length > 0 ? res.body.toString('utf8') : null
      if (!isSuccess(res.status)) error = `The receiver answered ${res.status}.`
    } catch (err) {
      error = err instanceof OutboundRefused ? err.reason : (err as Error).message
    }
    const latencyMs = performance.now() - t0
    const now = opts.clock.now()

    if (statusCode !== null && isSuccess(statusCode)) {
      await recordSuccess({ delivery: d, startedAt, statusCode, latencyMs, responseBody })
      if (d.failing_since) await markEndpointHealthy(opts.db, d.org_id, d.webhook_id)
      return
    }
    const gone = statusCode !== null && isGone(statusCode)
    const retryAt = gone ? null : nextAttemptAt(d.attempt_count, now)
    const outcome: AttemptResult['outcome'] = retryAt ? { status: 'pending', nextAttemptAt: retryAt } : { status: 'failed' }
    await recordAttempt(opts.db, d, { startedAt, statusCode, latencyMs, error, responseBody, outcome }, now)
    opts.log.debug({ delivery: d.id, webhook: d.webhook_id, statusCode, error }, 'webhook delivery attempt failed')

    const failingFor = d.failing_since ? (now.getTime() - new Date(d.failing_since).getTime()) / 1000 : 0
    if (gone) {
      await disable(d, 'The endpoint answered 410 Gone, which asks senders to stop.', now)
    } else if (d.failing_since && failingFor >= DISABLE_AFTER_FAILING_SECONDS) {
      await disable(d, `Every delivery failed for more than 24 hours (since ${new Date(d.failing_since).toISOString()}). Last error: ${error}`, now)
    } else if (!d.failing_since) {
      await markEndpointFailing(opts.db, d.org_id, d.webhook_id, now)
    }
  }

  async function disable(d: ClaimedDelivery, reason: string, now: Date): Promise<void> {
    await opts.db.transaction().execute((trx) => updateWebhook(trx, d.org_id, d.webhook_id, { status: 'disabled', disabledReason: reason }, now))
    opts.log.warn({ webhook: d.webhook_id, org: d.org_id }, `webhook disabled: ${reason}`)
  }

  const timer = setInterval(wake, opts.pollMs ?? DEFAULT_POLL_MS)
  timer.unref()
  wake()

  return {
    wake,
    settled() {
      if (inFlight === 0 && !draining) return Promise.resolve()
      return new Promise((resolve) => idleWaiters.push(resolve))
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      if (wakeTimer) clearTimeout(wakeTimer)
      // Let attempts under way finish (each is bounded by its timeout); leases cover the rest.
      const deadline = Date.now() + DELIVERY_TIMEOUT_MS
      while ((inFlight > 0 || draining) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      await flushSuccesses()
    },
  }
}
