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
 *
 * This file is the loop only. Its parts, each testable alone: turn-policy.ts decides (pure: load in,
 * claim size and spacing out), turn-load.ts measures, slot-counter.ts counts what is in flight,
 * delivery-attempt.ts makes the HTTP exchange, outcome-writer.ts writes what came of it.
 */
import { performance } from 'node:perf_hooks'
import type { Kysely } from 'kysely'
import type { FastifyBaseLogger } from 'fastify'
import type { DB } from '../db/database.ts'
import type { Clock } from '../shared/clock.ts'
import type { SecretBox } from '../shared/secret-box.ts'
import { deliverySender, passesFilter, type AttemptOutcome } from './delivery-attempt.ts'
import type { ClaimedDelivery } from './delivery.repository.ts'
import { OutcomeWriter } from './outcome-writer.ts'
import { DELIVERY_TIMEOUT_MS } from './retry-policy.ts'
import { SlotCounter } from './slot-counter.ts'
import { LoadMeter } from './turn-load.ts'
import { backlogAfter, delayUntilTurn, FIRST_TURN, TURN_MS, turnPolicy, type TurnPlan } from './turn-policy.ts'

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
   * event loop is saturated mostly by requests lets them go first (turn-policy.ts).
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

// Rows written by other processes (or retries coming due) are found within this.
const DEFAULT_POLL_MS = 250

/**
 * The loop: a turn measures the load, asks the policy for a claim size, has the outcome writer
 * write waiting successes and claim in one statement, and starts each claimed delivery in a slot;
 * a finished exchange hands its outcome to the writer and frees its slot.
 */
export function startDispatcher(opts: DispatcherOptions): Dispatcher {
  const send = deliverySender(opts)
  const slots = new SlotCounter(opts.concurrency)
  const outcomes = new OutcomeWriter({ db: opts.db, clock: opts.clock, log: opts.log, wake, writeSoon: requestTurn })
  const meter = new LoadMeter(opts.requestsServed)
  let plan: TurnPlan = { claim: 0, spacingMs: TURN_MS, yielding: false, state: FIRST_TURN }
  let lastTurnAt = -Infinity
  let turnTimer: NodeJS.Timeout | null = null
  let stopped = false
  let turning = false
  // Asked for while a turn was under way: another follows it.
  let wanted = false
  // The last claim took as many as it asked for: more is probably due.
  let backlog = false
  const idleWaiters: Array<() => void> = []

  const idle = () => slots.empty && !turning
  const notifyIdle = () => {
    if (idle()) idleWaiters.splice(0).forEach((resolve) => resolve())
  }

  function requestTurn(): void {
    if (turning) {
      wanted = true
      return
    }
    if (turnTimer) return
    const delay = delayUntilTurn({ now: performance.now(), lastTurnAt, spacingMs: plan.spacingMs, yielding: plan.yielding, backlog, successesWaiting: outcomes.successesWaiting })
    turnTimer = setTimeout(() => void turn(), delay)
  }

  function wake(): void {
    if (!stopped) requestTurn()
  }

  async function turn(): Promise<void> {
    turnTimer = null
    turning = true
    wanted = false
    lastTurnAt = performance.now()
    plan = turnPolicy(plan.state, { at: lastTurnAt, ...meter.observe(lastTurnAt), sent: slots.takeSentSinceTurn(), room: stopped ? 0 : slots.room() })
    slots.claimPlanned(plan.claim)
    try {
      const done = await outcomes.writeSuccessesAndClaim(plan.claim)
      if (done) {
        // A released ordered event is claimed soon rather than at the next poll.
        if (done.releasedOrdered) wanted = true
        backlog = backlogAfter(plan.claim, done.claimed.length)
        for (const delivery of done.claimed) void deliver(delivery)
      }
    } catch (err) {
      backlog = backlogAfter(plan.claim, 'failed')
      opts.log.warn({ err }, 'claiming webhook deliveries or writing their outcomes failed; retrying at the next poll')
    } finally {
      turning = false
      if (outcomes.successesWaiting > 0 || (wanted && !stopped)) requestTurn()
      notifyIdle()
    }
  }

  async function deliver(d: ClaimedDelivery): Promise<void> {
    slots.startSending(d.webhook_id)
    let outcome: AttemptOutcome = null
    try {
      if (d.webhook_status === 'active') outcome = passesFilter(d) ? await send(d) : 'filtered'
    } catch (err) {
      // Nothing was sent (the secret could not be opened): the lease brings the delivery back.
      slots.abandon(d.webhook_id)
      opts.log.error({ err, delivery: d.id }, 'webhook delivery could not be prepared; the lease will bring it back')
      notifyIdle()
      return
    }
    if (slots.sent()) wake()
    await outcomes.write(d, outcome)
    if (slots.written(d.webhook_id)) wake()
    notifyIdle()
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
