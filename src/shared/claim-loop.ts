/**
 * The loop of a background runner that claims leased work from the database (the migration runner,
 * the CSV import runner): look for work when woken and at every poll, start up to `concurrency`
 * jobs, look again when one ends, and on stop let the jobs under way end (they stop at their next
 * page and release their claims) for up to ten seconds. What a claim is and how a job runs is the
 * caller's: `claimNext` claims one piece of work and answers the job that runs it, or null.
 */
import type { FastifyBaseLogger } from 'fastify'

export interface ClaimLoop {
  /** Look for work now (after a request started some, so it does not wait for the poll). */
  wake(): void
  /** Resolves when no job runs in this process (tests). */
  settled(): Promise<void>
  stop(): Promise<void>
  /** True once stop() was called: jobs stop at their next page. */
  readonly stopped: boolean
}

export interface ClaimLoopOptions {
  concurrency: number
  pollMs: number
  log: FastifyBaseLogger
  /** What the log says when looking for work failed. */
  what: string
  claimNext(): Promise<(() => Promise<void>) | null>
  /** Extra work at the end of each look (housekeeping). */
  afterLook?(): Promise<void>
}

export function startClaimLoop(opts: ClaimLoopOptions): ClaimLoop {
  const running = new Set<Promise<void>>()
  let stopped = false
  let looking = false
  let again = false

  const work = async (): Promise<void> => {
    if (looking) {
      again = true
      return
    }
    looking = true
    try {
      do {
        again = false
        while (!stopped && running.size < opts.concurrency) {
          const job = await opts.claimNext()
          if (!job) break
          const task = job().finally(() => {
            running.delete(task)
            wake()
          })
          running.add(task)
        }
      } while (again && !stopped)
      if (!stopped) await opts.afterLook?.()
    } catch (err) {
      opts.log.warn({ err }, `claiming ${opts.what} failed; retrying at the next poll`)
    } finally {
      looking = false
    }
  }

  function wake(): void {
    if (!stopped) void work()
  }

  const timer = setInterval(wake, opts.pollMs)
  timer.unref()
  wake()

  return {
    wake,
    get stopped() {
      return stopped
    },
    async settled() {
      while (running.size > 0 || looking) await Promise.allSettled([...running, new Promise((r) => setTimeout(r, 20))])
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      await Promise.race([Promise.allSettled([...running]), new Promise((r) => setTimeout(r, 10_000))])
    },
  }
}
