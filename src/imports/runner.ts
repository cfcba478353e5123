/**
 * Runs CSV imports in the background of every process that does background work (SERVICE_ROLE
 * `all` or `worker`): claims an import with work to do (a leased row, FOR UPDATE SKIP LOCKED, so any
 * number of processes share the imports and no two run the same one), renews the lease while it
 * runs, and releases it. A process that dies loses its claim when the lease runs out; whoever
 * claims next resumes after the last committed page. The migration runner's pattern
 * (migration/runner/runner.ts), for a job with one step.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { Clock } from '../shared/clock.ts'
import { randomSecret } from '../shared/ids.ts'
import { ClaimLost, runImportJob } from './import-job.ts'
import { claimImport, deleteAbandonedChunks, releaseImportLease, renewImportLease } from './import.repository.ts'

/** How often a process looks for imports nobody woke it for (queued elsewhere, or a claim that ran out). */
const POLL_MS = 2_000
/** Uploads that never became an import are deleted this long after their last piece. */
const ABANDONED_UPLOAD_MS = 60 * 60 * 1000
const CLEAN_EVERY_MS = 10 * 60 * 1000

export interface ImportRunner {
  /** Look for work now (a request queued an import). */
  wake(): void
  /** Resolves when no import runs in this process (tests). */
  settled(): Promise<void>
  stop(): Promise<void>
}

export interface ImportRunnerOptions {
  db: Kysely<DB>
  clock: Clock
  log: FastifyBaseLogger
  concurrency: number
  leaseSeconds: number
  /** A name for this runner's claims (tests give two runners in one process different names). */
  owner?: string
}

export function startImportRunner(opts: ImportRunnerOptions): ImportRunner {
  const owner = opts.owner ?? `${process.pid}-${randomSecret(6)}`
  const leaseMs = opts.leaseSeconds * 1000
  const now = () => opts.clock.now()
  const running = new Set<Promise<void>>()
  let stopped = false
  let looking = false
  let again = false
  let cleanedAt = 0

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
          const t = now()
          const row = await claimImport(opts.db, owner, t, new Date(t.getTime() + leaseMs))
          if (!row) break
          let lost = false
          const renew = setInterval(() => {
            renewImportLease(opts.db, row.org_id, row.id, owner, new Date(now().getTime() + leaseMs))
              .then((held) => (lost ||= !held))
              .catch(() => {}) // retried at the next tick; the lease outlasts a few misses
          }, Math.max(250, Math.floor(leaseMs / 3)))
          renew.unref()
          const gate = () => {
            if (lost || stopped) throw new ClaimLost()
          }
          const task = runImportJob({ db: opts.db, owner, row, now, gate })
            .catch((err) => opts.log.error({ err, import: row.id }, 'CSV import failed'))
            .finally(async () => {
              clearInterval(renew)
              await releaseImportLease(opts.db, row.org_id, row.id, owner).catch(() => {})
              running.delete(task)
              wake()
            })
          running.add(task)
        }
      } while (again && !stopped)
      if (!stopped && now().getTime() - cleanedAt > CLEAN_EVERY_MS) {
        cleanedAt = now().getTime()
        await deleteAbandonedChunks(opts.db, new Date(cleanedAt - ABANDONED_UPLOAD_MS))
      }
    } catch (err) {
      opts.log.warn({ err }, 'claiming CSV imports failed; retrying at the next poll')
    } finally {
      looking = false
    }
  }

  function wake(): void {
    if (!stopped) void work()
  }

  const timer = setInterval(wake, POLL_MS)
  timer.unref()
  wake()

  return {
    wake,
    async settled() {
      while (running.size > 0 || looking) await Promise.allSettled([...running, new Promise((r) => setTimeout(r, 20))])
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      // Jobs stop at their next page and release their claims, so another process continues at once.
      await Promise.race([Promise.allSettled([...running]), new Promise((r) => setTimeout(r, 10_000))])
    },
  }
}
