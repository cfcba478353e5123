/**
 * The dispatcher's turn policy, pure: from the load observed since the last turn (how busy the
 * event loop was, requests served, deliveries started, room in the sending slots) it decides how
 * many deliveries the next statement claims and how soon the turn after it may run. No clock, no
 * timers, no database: the dispatcher measures and acts, this only decides (docs/webhooks.md,
 * Scheduling).
 */

// Turns: back to back while a backlog keeps the sending slots full; otherwise at most one per
// TURN_MS, or per BUSY_TURN_MS while this process's event loop was busy more than BUSY_UTILIZATION
// of the time since the last turn (a busy process then pays for one statement and one burst of
// requests per 50 ms, not per 10); and never sooner than WAKE_COALESCE_MS after a wake, so that one
// claim takes several commits.
export const TURN_MS = 10
export const BUSY_TURN_MS = 50
const BUSY_UTILIZATION = 0.75
export const WAKE_COALESCE_MS = 3
// Requests first: while the event loop was busy more than SATURATED_UTILIZATION of the time since
// the last turn and this process served at least half as many requests as it sent deliveries, it
// claims at most SATURATED_CLAIM deliveries per SATURATED_TURN_MS (a floor of 256/s with the
// defaults), so a write burst is not slowed by the deliveries it causes; the backlog is sent at
// full speed once the burst ends. Delivery-only processes (workers, a drain with few requests)
// never qualify.
const SATURATED_UTILIZATION = 0.9
// ...as an average over about this long, so that a short burst of a quiet process does not count.
export const SATURATION_WINDOW_MS = 1000
export const SATURATED_TURN_MS = 250
export const SATURATED_CLAIM = 64
/** Successes written by one statement, at most; this many waiting start a turn at once. */
export const SUCCESS_BATCH = 100

/** What the policy remembers from one turn to the next. */
export interface TurnPolicyState {
  /** Event-loop utilization averaged over about SATURATION_WINDOW_MS. */
  averageUtilization: number
  /** When the last claim was made (ms on the dispatcher's monotonic clock). */
  lastClaimAt: number
}

export const FIRST_TURN: TurnPolicyState = { averageUtilization: 0, lastClaimAt: -Infinity }

/** The load observed since the last turn. */
export interface TurnLoad {
  /** Now, in ms on the dispatcher's monotonic clock. */
  at: number
  /** Share of the time since the last turn the event loop was busy, 0 to 1. */
  utilization: number
  /** Time since the last turn's observation. */
  elapsedMs: number
  /** HTTP requests served since the last turn; null in a process that serves none. */
  requestsServed: number | null
  /** Deliveries started since the last turn. */
  sent: number
  /** Deliveries the sending slots and the unwritten outcomes have room for (0 once stopping). */
  room: number
}

export interface TurnPlan {
  /** Deliveries to claim in this turn's statement (0: write outcomes only). */
  claim: number
  /** The next turn goes no sooner than this after this one, unless a backlog asks for it at once. */
  spacingMs: number
  /** Requests go first: claims are small and spaced (SATURATED_*). */
  yielding: boolean
  state: TurnPolicyState
}

/** Claim size and spacing of the turn starting now. */
export function turnPolicy(state: TurnPolicyState, load: TurnLoad): TurnPlan {
  const averageUtilization = state.averageUtilization + (load.utilization - state.averageUtilization) * Math.min(1, load.elapsedMs / SATURATION_WINDOW_MS)
  const yielding = load.requestsServed !== null && averageUtilization > SATURATED_UTILIZATION && load.requestsServed * 2 >= load.sent
  const spacingMs = yielding ? SATURATED_TURN_MS : load.utilization > BUSY_UTILIZATION ? BUSY_TURN_MS : TURN_MS
  let claim = Math.max(0, load.room)
  if (yielding) claim = load.at - state.lastClaimAt >= SATURATED_TURN_MS ? Math.min(claim, SATURATED_CLAIM) : 0
  return { claim, spacingMs, yielding, state: { averageUtilization, lastClaimAt: claim > 0 ? load.at : state.lastClaimAt } }
}

/** What the dispatcher knows when a turn is asked for. */
export interface TurnRequest {
  now: number
  lastTurnAt: number
  /** The last plan's spacing and whether it yielded to requests. */
  spacingMs: number
  yielding: boolean
  /** The last claim took as many as it asked for: more is probably due. */
  backlog: boolean
  /** Successes waiting to be written. */
  successesWaiting: number
}

/** How long until the asked-for turn runs, in ms. */
export function delayUntilTurn(r: TurnRequest): number {
  if ((r.backlog && !r.yielding) || r.successesWaiting >= SUCCESS_BATCH) return 0
  return Math.max(WAKE_COALESCE_MS, r.lastTurnAt + r.spacingMs - r.now)
}

/** Whether the claim that was asked for left more due behind it; a failed turn says nothing. */
export function backlogAfter(claim: number, claimed: number | 'failed'): boolean {
  return claimed !== 'failed' && claim > 0 && claimed === claim
}
