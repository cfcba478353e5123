/**
 * Writes what became of each delivery: successes in batches with the next claim (one statement
 * per turn), failures at once with their retry time or as given up, filtered deliveries, and the
 * endpoint's health (failing since, healthy again, disabled after 410 Gone or a day of failures).
 * A delivery stays leased until its outcome is written, so a crash in between only sends it again.
 *
 * It wakes the dispatcher when a written outcome releases an ordered record's next event.
 */
import type { Kysely } from 'kysely'
import type { FastifyBaseLogger } from 'fastify'
import type { DB } from '../db/database.ts'
import type { Clock } from '../shared/clock.ts'
import type { AttemptOutcome } from './delivery-attempt.ts'
import { markEndpointFailing, markEndpointHealthy, recordAttempt, recordFiltered, recordSuccessesAndClaim, type AttemptResult, type ClaimedDelivery } from './delivery.repository.ts'
import { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_FAILING_SECONDS, isGone, isSuccess, nextAttemptAt } from './retry-policy.ts'
import { WaitingSuccesses } from './success-batch.ts'
import { SUCCESS_BATCH } from './turn-policy.ts'
import { updateWebhook } from './webhook.repository.ts'

// A claim outlives the longest attempt, so a live worker never loses its lease mid-send.
const LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000
// PostgreSQL's foreign_key_violation: a write that names a delivery deleted meanwhile.
const FOREIGN_KEY_VIOLATION = '23503'

export interface OutcomeWriterOptions {
  db: Kysely<DB>
  clock: Clock
  log: FastifyBaseLogger
  /** Asks for a turn unless the dispatcher is stopping: an ordered record's next event may be due. */
  wake(): void
  /** Asks for a turn even while stopping: a success waits to be written by one. */
  writeSoon(): void
}

/** What a turn's statement did. */
export interface TurnWritten {
  claimed: ClaimedDelivery[]
  /** A written success released an ordered record's next event, which this claim could not see yet. */
  releasedOrdered: boolean
}

export class OutcomeWriter {
  readonly #opts: OutcomeWriterOptions
  readonly #successes = new WaitingSuccesses()

  constructor(opts: OutcomeWriterOptions) {
    this.#opts = opts
  }

  /** Successes waiting for a turn to write them. */
  get successesWaiting(): number {
    return this.#successes.size
  }

  /**
   * One turn's statement: writes up to SUCCESS_BATCH waiting successes and claims up to `claim`
   * due deliveries (leased). Null when there was nothing to write or claim. Throws when the
   * statement fails; the successes it carried are then reported failed to their writers.
   */
  async writeSuccessesAndClaim(claim: number): Promise<TurnWritten | null> {
    const batch = this.#successes.take(SUCCESS_BATCH)
    if (batch.successes.length === 0 && claim <= 0) return null
    try {
      const now = this.#opts.clock.now()
      const claimed = await recordSuccessesAndClaim(this.#opts.db, batch.successes, now, new Date(now.getTime() + LEASE_MS), claim)
      batch.written()
      return { claimed, releasedOrdered: batch.successes.some((s) => s.delivery.record_id !== null) }
    } catch (err) {
      batch.failed(err)
      throw err
    }
  }

  /**
   * Writes one delivery's outcome; never throws. A success resolves once a turn has written it.
   * A fault is logged: the delivery is sent again when its lease runs out.
   */
  async write(d: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
    try {
      await this.#record(d, outcome)
    } catch (err) {
      // Deleted mid-flight is handled in #record(); a foreign key refusing the write is the same race
      // seen from another statement. Anything else is a fault: the delivery is sent again when its
      // lease runs out, so the receiver may see it twice.
      if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION) this.#deletedMidFlight(d)
      else this.#opts.log.error({ err, delivery: d.id }, 'webhook delivery bookkeeping failed; the lease will bring it back')
    }
  }

  /** The attempt log, the delivery's next state, and the endpoint's health. */
  async #record(d: ClaimedDelivery, attempt: AttemptOutcome): Promise<void> {
    const { db, clock, log } = this.#opts
    if (attempt === 'filtered') {
      await recordFiltered(db, d, clock.now())
      // An ordered record's next event may go now.
      if (d.record_id !== null) this.#opts.wake()
      return
    }
    if (!attempt) {
      const at = clock.now()
      if (!(await recordAttempt(db, d, { startedAt: at, statusCode: null, latencyMs: 0, error: 'The endpoint was disabled before this delivery was sent.', responseBody: null, outcome: { status: 'failed' } }, at))) this.#deletedMidFlight(d)
      return
    }
    const { statusCode, error } = attempt
    if (statusCode !== null && isSuccess(statusCode)) {
      const written = this.#successes.add({ delivery: d, startedAt: attempt.startedAt, statusCode, latencyMs: attempt.latencyMs, responseBody: attempt.responseBody })
      this.#opts.writeSoon()
      await written
      if (d.failing_since) await markEndpointHealthy(db, d.org_id, d.webhook_id)
      return
    }
    const now = clock.now()
    const gone = statusCode !== null && isGone(statusCode)
    const retryAt = gone ? null : nextAttemptAt(d.attempt_count, now)
    const outcome: AttemptResult['outcome'] = retryAt ? { status: 'pending', nextAttemptAt: retryAt } : { status: 'failed' }
    if (!(await recordAttempt(db, d, { ...attempt, outcome }, now))) return this.#deletedMidFlight(d)
    // Giving up on an ordered delivery releases the record's next event.
    if (outcome.status === 'failed' && d.record_id !== null) this.#opts.wake()
    log.debug({ delivery: d.id, webhook: d.webhook_id, statusCode, error }, 'webhook delivery attempt failed')

    const failingFor = d.failing_since ? (now.getTime() - new Date(d.failing_since).getTime()) / 1000 : 0
    if (gone) {
      await this.#disable(d, 'The endpoint answered 410 Gone, which asks senders to stop.', now)
    } else if (d.failing_since && failingFor >= DISABLE_AFTER_FAILING_SECONDS) {
      await this.#disable(d, `Every delivery failed for more than 24 hours (since ${new Date(d.failing_since).toISOString()}). Last error: ${error}`, now)
    } else if (!d.failing_since) {
      await markEndpointFailing(db, d.org_id, d.webhook_id, now)
    }
  }

  async #disable(d: ClaimedDelivery, reason: string, now: Date): Promise<void> {
    const updated = await this.#opts.db.transaction().execute((trx) => updateWebhook(trx, d.org_id, d.webhook_id, { status: 'disabled', disabledReason: reason }, now))
    if (updated) this.#opts.log.warn({ webhook: d.webhook_id, org: d.org_id }, `webhook disabled: ${reason}`)
  }

  /**
   * The delivery's webhook was deleted while the attempt was under way (its deliveries went with it):
   * an expected race, not a fault. There is nothing left to record and nothing to send again.
   */
  #deletedMidFlight(d: ClaimedDelivery): void {
    this.#opts.log.debug({ delivery: d.id, webhook: d.webhook_id }, 'webhook deleted while a delivery was in flight; its outcome is dropped')
  }
}
