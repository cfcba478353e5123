/**
 * The order of an import's pages. Several pages are written at the same time, each in its own
 * transaction, and they commit in file order, so the committed rows are always a prefix of the file
 * and a resumed job skips exactly those.
 *
 * A page waits for the page ahead inside the service, with its transaction open, and PostgreSQL
 * cannot see that wait. Two pages can then wait on each other with no deadlock report. Say the page
 * behind wrote a row the page ahead must also write (the same src_id in a file imported without
 * dedupe_by). The page ahead waits in PostgreSQL for the page behind to end. The page behind waits
 * in the service for the page ahead to commit. So that wait is bounded (`patientWait`): a page that
 * waits longer gives its locks back by rolling back, waits for the page ahead outside any
 * transaction, and runs again. A page is rolled back at most once that way. When it runs again,
 * every page ahead of it has ended, so it has nothing left to wait for.
 */

/** How long a page waits, its transaction open, for the page ahead before it rolls back and runs again after it. */
export const AHEAD_PATIENCE_MS = 5_000

/** Thrown into a page whose wait for the page ahead ran out; the page rolls back and runs again. */
export class PageAheadTooSlow extends Error {
  constructor(ms: number) {
    super(`The page ahead did not commit within ${ms} ms.`)
  }
}

/**
 * `ahead`, or a PageAheadTooSlow rejection `ms` after something first waits on it. The clock starts at
 * the first wait, not at the page's start, so a page's own slow statements do not count.
 */
export function patientWait(ahead: Promise<void>, ms: number): PromiseLike<void> {
  let wait: Promise<void> | undefined
  const started = () =>
    (wait ??= new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new PageAheadTooSlow(ms)), ms)
      ahead.then(resolve, reject).finally(() => clearTimeout(timer))
    }))
  return { then: (onResolved, onRejected) => started().then(onResolved, onRejected) }
}

/**
 * Pages in flight, committing in file order: a page commits only after the page ahead of it has (it
 * waits for `ahead` before its last statement). While one page is in PostgreSQL the next is read,
 * checked and sent.
 */
export class OrderedPages {
  #last: Promise<void> = Promise.resolve()
  #open: Promise<void>[] = []
  readonly limit: number
  constructor(limit: number) {
    this.limit = limit
  }

  /** Starts a page; waits while `limit` pages are in flight (and throws if the oldest failed). */
  async add(run: (ahead: Promise<void>) => Promise<void>): Promise<void> {
    const page = run(this.#last)
    page.catch(() => {}) // reported by whoever awaits it
    this.#last = page
    this.#open.push(page)
    if (this.#open.length >= this.limit) await this.#open.shift()
  }

  /** Waits for every page; throws the first failure. */
  async drain(): Promise<void> {
    while (this.#open.length > 0) await this.#open.shift()
  }

  /** Waits for every page, failed or not (before the job reports its own end). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.#open.splice(0))
  }
}
