/**
 * The process-local side of the API rate limits: for each budget (an organization, or an API client
 * within one) the share of the current window's quota this process holds. A request spends one unit
 * from memory; only when a share runs low does the process take another lease from the database
 * (lease.repository.ts), ahead of need, so requests wait for a lease only when a share is empty.
 */

export type TakeLease = (budget: string, windowStart: Date, limit: number, batch: number) => Promise<{ granted: number; leased: number }>

/** One budget's units in this process for one window. */
export class Share {
  windowStart = -1
  /** Units this process holds and has not spent. */
  tokens = 0
  /** Units of the window all processes had taken as of this process's latest lease. */
  leased = 0
  lastLease = 0
  /** A lease found the window's quota all taken: refuse once `tokens` is spent, ask no more. */
  exhausted = false
  pending: Promise<void> | null = null
  readonly budget: string
  readonly limit: number
  readonly batch: number

  constructor(budget: string, limit: number) {
    this.budget = budget
    this.limit = limit
    // A tenth of the quota per lease: ten statements per busy window and process.
    this.batch = Math.max(1, Math.ceil(limit / 10))
  }

  /** Starts the window anew when the clock has passed into another one. */
  enter(windowStart: number): void {
    if (this.windowStart === windowStart) return
    this.windowStart = windowStart
    this.tokens = 0
    this.leased = 0
    this.lastLease = 0
    this.exhausted = false
  }

  /** What the caller may still send in this window, as this process knows it: unleased units plus its own. */
  remaining(): number {
    return Math.max(0, this.limit - this.leased) + this.tokens
  }

  /** Takes a lease unless one is under way; a lease that lands after its window ended is dropped. */
  refill(take: TakeLease): Promise<void> {
    if (this.pending) return this.pending
    const windowStart = this.windowStart
    this.pending = take(this.budget, new Date(windowStart), this.limit, this.batch)
      .then((lease) => {
        if (this.windowStart !== windowStart) return
        this.tokens += lease.granted
        this.leased = lease.leased
        this.lastLease = lease.granted
        if (lease.granted === 0) this.exhausted = true
      })
      .finally(() => {
        this.pending = null
      })
    return this.pending
  }

  /** After spending: lease the next units once a quarter of the last lease is left, before anyone waits. */
  shouldPrefetch(): boolean {
    return !this.exhausted && this.pending === null && this.tokens * 4 <= this.lastLease
  }
}

/** A budget that refuses: its units are spent and the window's quota is all leased. */
export function refused(a: Share, b: Share): Share | null {
  if (a.tokens === 0 && a.exhausted) return a
  if (b.tokens === 0 && b.exhausted) return b
  return null
}

/**
 * Spends a unit of both shares, waiting for leases while one is empty, or returns the share that
 * refuses. The spending happens in the same step as the check, so no other request can take the
 * units in between. Requests waiting on one share wait on the same lease.
 */
export async function acquire(a: Share, b: Share, take: TakeLease): Promise<Share | null> {
  for (;;) {
    const refusing = refused(a, b)
    if (refusing) return refusing
    if (a.tokens > 0 && b.tokens > 0) {
      a.tokens--
      b.tokens--
      return null
    }
    await Promise.all([a.tokens === 0 ? a.refill(take) : null, b.tokens === 0 ? b.refill(take) : null])
  }
}

/** The shares of one organization: its own and one per API client. */
export interface OrgShares {
  org: Share
  clients: Map<string, Share>
}
