/**
 * Sends due deliveries in the background: woken when a change commits in this process, by NOTIFY,
 * and by a poll for retries coming due. Claims are leased rows (delivery.repository.ts), so any
 * number of processes can run this against one PostgreSQL and a crash at any point only delays a
 * delivery.
 *
 * The database work goes in turns: one statement per turn writes the successes gathered since the
 * last turn and claims what is due, so a steady stream of deliveries costs one round trip per turn,
 * not one per claim plus one per batch of successes. A delivery holds one of `concurrency` sending
 * slots only while its HTTP exchange is under way; its outcome is then written by a later turn
 * (failures at once, on their own) while the slot takes the next delivery. The row stays leased
 * until its outcome is written, so a crash in between sends it again once the lease runs out,
 * exactly as a crash during the exchange does.
 */
import { performance } from 'node:perf_hooks'
import type { Kysely } from 'kysely'
import type { FastifyBaseLogger } from 'fastify'
import type { DB } from '../db/database.ts'
import type { Clock } from '../shared/clock.ts'
import { OutboundRefused } from '../shared/outbound/guarded-request.ts'
import { postDelivery } from './delivery-client.ts'
import type { SecretBox } from '../shared/secret-box.ts'
import { markEndpointFailing, markEndpointHealthy, recordAttempt, recordFiltered, recordSuccessesAndClaim, type AttemptResult, type ClaimedDelivery } from './delivery.repository.ts'
import { filterAccepts } from './filter/filter-match.ts'
import { TEST_EVENT } from '../events/index.ts'
import { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_FAILING_SECONDS, isGone, isSuccess, nextAttemptAt } from './retry-policy.ts'
import { deliveryHeaders } from './signing.ts'
import { signingKeys } from './signing-keys.ts'
import { WaitingSuccesses } from './success-batch.ts'
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
  /**
   * HTTP requests this process has served so far (a counter), when it serves any: a process whose
   * event loop is saturated mostly by requests lets them go first (see SATURATED_TURN_MS).
   */
  requestsServed?: () => number
}

export interface Dispatcher {
  /** Look for due deliveries now (NOTIFY and the poll call this; tests too, after moving the clock). */
  wake(): void
  /** Resolves when nothing is being sent, written or claimed (tests). */
  settled(): Promise<void>
  stop(): Promise<void>
}

/** Response bodies are kept only this far, for the delivery log. */
const KEPT_RESPONSE_BYTES = 1024
// A claim outlives the longest attempt, so a live worker never loses its lease mid-send.
const LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000
// Rows written by other processes (or retries coming due) are found within this.
const DEFAULT_POLL_MS = 250
// Turns (docs/webhooks.md, Scheduling): back to back while a backlog keeps the sending slots full;
// otherwise at most one per TURN_MS, or per BUSY_TURN_MS while this process's event loop was busy
// more than BUSY_UTILIZATION of the time since the last turn (a busy process then pays for one
// statement and one burst of requests per 50 ms, not per 10); and never sooner than
// WAKE_COALESCE_MS after a wake, so that one claim takes several commits.
const TURN_MS = 10
const BUSY_TURN_MS = 50
const BUSY_UTILIZATION = 0.75
const WAKE_COALESCE_MS = 3
// Requests first: while the event loop was busy more than SATURATED_UTILIZATION of the time since
// the last turn and this process served at least half as many requests as it sent deliveries, it
// claims at most SATURATED_CLAIM deliveries per SATURATED_TURN_MS (a floor of 256/s with the
// defaults), so a write burst is not slowed by the deliveries it causes; the backlog is sent at
// full speed once the burst ends (docs/webhooks.md, Scheduling). Delivery-only processes (workers,
// a drain with few requests) never qualify.
const SATURATED_UTILIZATION = 0.9
// ...as an average over about this long, so that a short burst of a quiet process does not count.
const SATURATION_WINDOW_MS = 1000
const SATURATED_TURN_MS = 250
const SATURATED_CLAIM = 64
// PostgreSQL's foreign_key_violation: a write that names a delivery deleted meanwhile.
const FOREIGN_KEY_VIOLATION = '23503'
// Successes written by one statement, at most.
const SUCCESS_BATCH = 100
// Claimed deliveries whose outcome is not yet written, at most this many sending slots' worth: if
// the database falls behind, claiming pauses rather than piling outcomes up in memory.
const UNWRITTEN_PER_SLOT = 4

/** What one attempt came to, before it is written. */
interface Attempt {
  startedAt: Date
  statusCode: number | null
  latencyMs: number
  error: string | null
  responseBody: string | null
}

export function startDispatcher(opts: DispatcherOptions): Dispatcher {
  const keys = signingKeys(opts.box)
  const waiting = new WaitingSuccesses()
  const maxUnwritten = opts.concurrency * UNWRITTEN_PER_SLOT
  let sending = 0
  let unwritten = 0
  let stopped = false
  let turning = false
  let turnTimer: NodeJS.Timeout | null = null
  let lastTurnAt = -Infinity
  let turnSpacing = TURN_MS
  let loopAtLastTurn = performance.eventLoopUtilization()
  let loopAtLastTurnAt = performance.now()
  let requestsAtLastTurn = opts.requestsServed?.() ?? 0
  let sentSinceLastTurn = 0
  let yielding = false
  let averageUtilization = 0
  let lastClaimAt = -Infinity
  // Asked for while a turn was under way: another follows it.
  let wanted = false
  // The last claim took as many as it asked for: more is probably due.
  let backlog = false
  // Claiming paused because too many outcomes wait to be written (not for want of sending slots).
  let waitingForWrites = false
  const idleWaiters: Array<() => void> = []

  const room = () => Math.min(opts.concurrency - sending, maxUnwritten - sending - unwritten)
  const idle = () => sending === 0 && unwritten === 0 && !turning
  const notifyIdle = () => {
    if (idle()) idleWaiters.splice(0).forEach((resolve) => resolve())
  }

  function requestTurn(): void {
    if (turning) {
      wanted = true
      return
    }
    if (turnTimer) return
    const soonest = (backlog && !yielding) || waiting.size >= SUCCESS_BATCH ? 0 : Math.max(WAKE_COALESCE_MS, lastTurnAt + turnSpacing - performance.now())
    turnTimer = setTimeout(() => void turn(), soonest)
  }

  async function turn(): Promise<void> {
    turnTimer = null
    turning = true
    wanted = false
    lastTurnAt = performance.now()
    // How busy the event loop was since the last turn sets the spacing of the next one.
    const loop = performance.eventLoopUtilization()
    const utilization = performance.eventLoopUtilization(loop, loopAtLastTurn).utilization
    const elapsed = lastTurnAt - loopAtLastTurnAt
    loopAtLastTurn = loop
    loopAtLastTurnAt = lastTurnAt
    averageUtilization += (utilization - averageUtilization) * Math.min(1, elapsed / SATURATION_WINDOW_MS)
    const requests = opts.requestsServed?.() ?? 0
    yielding = opts.requestsServed !== undefined && averageUtilization > SATURATED_UTILIZATION && (requests - requestsAtLastTurn) * 2 >= sentSinceLastTurn
    requestsAtLastTurn = requests
    sentSinceLastTurn = 0
    turnSpacing = yielding ? SATURATED_TURN_MS : utilization > BUSY_UTILIZATION ? BUSY_TURN_MS : TURN_MS
    let limit = stopped ? 0 : room()
    if (yielding) limit = lastTurnAt - lastClaimAt >= SATURATED_TURN_MS ? Math.min(limit, SATURATED_CLAIM) : 0
    if (limit > 0) lastClaimAt = lastTurnAt
    waitingForWrites = limit <= 0 && maxUnwritten - sending - unwritten <= 0
    const batch = waiting.take(SUCCESS_BATCH)
    try {
      if (batch.successes.length > 0 || limit > 0) {
        const now = opts.clock.now()
        const claimed = await recordSuccessesAndClaim(opts.db, batch.successes, now, new Date(now.getTime() + LEASE_MS), Math.max(limit, 0))
        batch.written()
        // A written success of an ordered delivery releases the record's next event: claim it soon
        // rather than at the next poll (this turn's claim could not see the success yet).
        if (batch.successes.some((s) => s.delivery.record_id !== null)) wanted = true
        backlog = limit > 0 && claimed.length === limit
        for (const delivery of claimed) void deliver(delivery)
      }
    } catch (err) {
      batch.failed(err)
      backlog = false
      opts.log.warn({ err }, 'claiming webhook deliveries or writing their outcomes failed; retrying at the next poll')
    } finally {
      turning = false
      if (waiting.size > 0 || (wanted && !stopped)) requestTurn()
      notifyIdle()
    }
  }

  function wake(): void {
    if (!stopped) requestTurn()
  }

  async function deliver(d: ClaimedDelivery): Promise<void> {
    sending++
    sentSinceLastTurn++
    let attempt: Attempt | 'filtered' | null = null
    try {
      if (d.webhook_status === 'active') attempt = passesFilter(d) ? await send(d) : 'filtered'
    } catch (err) {
      // Nothing was sent (the secret could not be opened): the lease brings the delivery back.
      sending--
      opts.log.error({ err, delivery: d.id }, 'webhook delivery could not be prepared; the lease will bring it back')
      notifyIdle()
      return
    }
    sending--
    unwritten++
    // Refill in batches rather than one claim per finished exchange.
    if (sending <= opts.concurrency / 2) wake()
    try {
      await record(d, attempt)
    } catch (err) {
      // Deleted mid-flight is handled in record(); a foreign key refusing the write is the same race
      // seen from another statement. Anything else is a fault: the delivery is sent again when its
      // lease runs out, so the receiver may see it twice.
      if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION) deletedMidFlight(d)
      else opts.log.error({ err, delivery: d.id }, 'webhook delivery bookkeeping failed; the lease will bring it back')
    } finally {
      unwritten--
      if (waitingForWrites && maxUnwritten - sending - unwritten >= opts.concurrency / 2) {
        waitingForWrites = false
        wake()
      }
      notifyIdle()
    }
  }

  /** The filter is judged now, at delivery time, on the body this endpoint would receive. */
  function passesFilter(d: ClaimedDelivery): boolean {
    return d.filter === null || d.event_type === TEST_EVENT || filterAccepts(d.filter, JSON.parse(d.body))
  }

  /** One HTTP exchange; a refused or failed exchange is an attempt with an error, not an exception. */
  async function send(d: ClaimedDelivery): Promise<Attempt> {
    const startedAt = opts.clock.now()
    const body = bodyToSend(d)
    const headers = deliveryHeaders(d.event_id, Math.floor(startedAt.getTime() / 1000), body, d.secret_sealed ? keys.get(d.secret_sealed) : null)
    const t0 = performance.now()
    let statusCode: number | null = null
    let error: string | null = null
    let responseBody: string | null = null
    try {
      const res = await postDelivery(d.url, headers, body, { allowPrivate: opts.allowPrivate, timeoutMs: DELIVERY_TIMEOUT_MS, maxBodyBytes: KEPT_RESPONSE_BYTES })
      statusCode = res.status
      responseBody = res.body.length > 0 ? res.body.toString('utf8') : null
      if (!isSuccess(res.status)) error = `The receiver answered ${res.status}.`
    } catch (err) {
      error = err instanceof OutboundRefused ? err.reason : (err as Error).message
    }
    return { startedAt, statusCode, latencyMs: performance.now() - t0, error, responseBody }
  }

  /** Writes the outcome: the attempt log, the delivery's next state, and the endpoint's health. */
  async function record(d: ClaimedDelivery, attempt: Attempt | 'filtered' | null): Promise<void> {
    if (attempt === 'filtered') {
      await recordFiltered(opts.db, d, opts.clock.now())
      // An ordered record's next event may go now.
      if (d.record_id !== null) wake()
      return
    }
    if (!attempt) {
      const at = opts.clock.now()
      if (!(await recordAttempt(opts.db, d, { startedAt: at, statusCode: null, latencyMs: 0, error: 'The endpoint was disabled before this delivery was sent.', responseBody: null, outcome: { status: 'failed' } }, at))) deletedMidFlight(d)
      return
    }
    const { statusCode, error } = attempt
    if (statusCode !== null && isSuccess(statusCode)) {
      const written = waiting.add({ delivery: d, startedAt: attempt.startedAt, statusCode, latencyMs: attempt.latencyMs, responseBody: attempt.responseBody })
      requestTurn()
      await written
      if (d.failing_since) await markEndpointHealthy(opts.db, d.org_id, d.webhook_id)
      return
    }
    const now = opts.clock.now()
    const gone = statusCode !== null && isGone(statusCode)
    const retryAt = gone ? null : nextAttemptAt(d.attempt_count, now)
    const outcome: AttemptResult['outcome'] = retryAt ? { status: 'pending', nextAttemptAt: retryAt } : { status: 'failed' }
    if (!(await recordAttempt(opts.db, d, { ...attempt, outcome }, now))) return deletedMidFlight(d)
    // Giving up on an ordered delivery releases the record's next event.
    if (outcome.status === 'failed' && d.record_id !== null) wake()
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
    const updated = await opts.db.transaction().execute((trx) => updateWebhook(trx, d.org_id, d.webhook_id, { status: 'disabled', disabledReason: reason }, now))
    if (updated) opts.log.warn({ webhook: d.webhook_id, org: d.org_id }, `webhook disabled: ${reason}`)
  }

  /**
   * The delivery's webhook was deleted while the attempt was under way (its deliveries went with it):
   * an expected race, not a fault. There is nothing left to record and nothing to send again.
   */
  function deletedMidFlight(d: ClaimedDelivery): void {
    opts.log.debug({ delivery: d.id, webhook: d.webhook_id }, 'webhook deleted while a delivery was in flight; its outcome is dropped')
  }

  const timer = setInterval(wake, opts.pollMs ?? DEFAULT_POLL_MS)
  timer.unref()
  wake()

  return {
    wake,
    settled() {
      if (idle()) return Promise.resolve()
      return new Promise((resolve) => idleWaiters.push(resolve))
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      // Let attempts under way finish (each is bounded by its timeout) and their outcomes be
      // written (turns go on without claiming); leases cover the rest.
      const deadline = Date.now() + DELIVERY_TIMEOUT_MS
      while (!idle() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      if (turnTimer) clearTimeout(turnTimer)
    },
  }
}

/**
 * What the endpoint receives: the stored event, or for a thin endpoint its reference only
 * (docs/webhooks.md, The event catalogue). The test event has no record and is sent whole.
 */
export function bodyToSend(d: Pick<ClaimedDelivery, 'body' | 'payload' | 'event_seq' | 'event_type'>): string {
  if (d.payload !== 'thin' || d.event_type === TEST_EVENT) return d.body
  const event = JSON.parse(d.body) as { id: string; type: string; timestamp: string; data: { object: { id: string } } }
  return JSON.stringify({ id: event.id, seq: Number(d.event_seq), type: event.type, timestamp: event.timestamp, object_id: event.data.object.id })
}
