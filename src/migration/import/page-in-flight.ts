/**
 * A page of one object in flight, as the pages after it see it. Pages are written concurrently and
 * commit in order; a page whose decisions depend on the pages before it (deduplication, case
 * numbers) waits only until the page ahead has made its own (`decided`), not until it commits. It
 * then checks against the database, which holds every committed page, and against the claims of
 * the pages ahead that have not committed yet: the deduplication keys of the records they create
 * and the case numbers they assigned.
 */

export interface Claims {
  /** Normalized deduplication key -> the id of the record a page ahead creates with it. */
  keys: Map<string, string>
  /** Case numbers pages ahead assigned. */
  numbers: Set<number>
}

export class PageInFlight {
  readonly keys = new Map<string, string>()
  readonly numbers = new Set<number>()
  /** Resolves once this page's claims are final; rejects if it failed before. */
  readonly decided: Promise<void>
  /** Resolves once this page has committed; rejects if it failed. */
  readonly committed: Promise<void>
  #ahead: PageInFlight | null
  #isCommitted = false
  #decide!: () => void
  #failDecision!: (error: unknown) => void
  #commit!: () => void
  #fail!: (error: unknown) => void

  constructor(ahead: PageInFlight | null = null) {
    this.#ahead = ahead
    this.decided = new Promise<void>((resolve, reject) => {
      this.#decide = resolve
      this.#failDecision = reject
    })
    this.committed = new Promise<void>((resolve, reject) => {
      this.#commit = resolve
      this.#fail = reject
    })
    // Awaited by the page after, if there is one; a failure is reported by importPage itself.
    this.decided.catch(() => {})
    this.committed.catch(() => {})
  }

  /** The page ahead, until it has committed. */
  get ahead(): PageInFlight | null {
    return this.#ahead
  }

  decide(): void {
    this.#decide()
  }

  commit(): void {
    this.#isCommitted = true
    // Committed pages are in the database: no page needs their claims, or the chain behind them.
    this.#ahead = null
    this.keys.clear()
    this.numbers.clear()
    this.#decide()
    this.#commit()
  }

  fail(error: unknown): void {
    this.#failDecision(error)
    this.#fail(error)
  }

  /**
   * The claims of the pages ahead that have not committed. Read it before looking in the database:
   * a page that commits in between is then in one or the other.
   */
  claimsAhead(): Claims {
    const claims: Claims = { keys: new Map(), numbers: new Set() }
    for (let p = this.#ahead; p && !p.#isCommitted; p = p.#ahead) {
      for (const [k, id] of p.keys) if (!claims.keys.has(k)) claims.keys.set(k, id)
      for (const n of p.numbers) claims.numbers.add(n)
    }
    return claims
  }
}
