/**
 * Successful attempts waiting to be written. The dispatcher writes them in batches, together with
 * its next claim (recordSuccessesAndClaim), and settles each one's promise when its batch is
 * written: until then the delivery stays leased, so a crash before the write sends it again.
 */
import type { Success } from './delivery.repository.ts'

export interface SuccessBatch {
  successes: Success[]
  written(): void
  failed(err: unknown): void
}

export class WaitingSuccesses {
  #successes: Success[] = []
  #waiters: Array<{ done: () => void; failed: (err: unknown) => void }> = []

  get size(): number {
    return this.#successes.length
  }

  /** Resolves when the success has been written, rejects when its batch failed. */
  add(success: Success): Promise<void> {
    return new Promise((done, failed) => {
      this.#successes.push(success)
      this.#waiters.push({ done, failed })
    })
  }

  /** Up to `max` of the oldest, to be written now. */
  take(max: number): SuccessBatch {
    const successes = this.#successes.splice(0, max)
    const waiters = this.#waiters.splice(0, max)
    return {
      successes,
      written: () => waiters.forEach((w) => w.done()),
      failed: (err) => waiters.forEach((w) => w.failed(err)),
    }
  }
}
