/**
 * Wakes this process's open event streams when its sequencer numbered events, so a stream shows a
 * local change at once; streams still poll for what other processes numbered.
 */
export class FeedWakeups {
  private waiting = new Set<() => void>()
  /** Set when the app closes: streams end, so closing never waits for their clients. */
  closed = false

  /** Resolves at the next wake-up or after `ms`, whichever comes first. */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiting.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.waiting.add(done)
    })
  }

  close(): void {
    this.closed = true
    this.wakeAll()
  }

  wakeAll(): void {
    for (const done of [...this.waiting]) done()
  }
}
