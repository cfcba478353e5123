/**
 * Deletes what no longer counts, hourly in every process (`app.runHousekeeping` runs it now). The
 * plugin owns the registry and plumbing's own tasks (rate-limit windows and leases, lapsed stream
 * slots, idempotency keys past their 24 hours); each capability adds its own with
 * `app.housekeeping.add` (OAuth codes and tokens, webhook delivery logs, the event journal,
 * tombstones), so this file imports no capability. The deletes are idempotent, so several
 * processes on one PostgreSQL need no coordination; one task failing does not stop the others.
 */
import fp from 'fastify-plugin'
import { runPeriodically } from './periodic.ts'
import type { Clock } from '../../shared/clock.ts'
import { pruneRateLimits } from '../../shared/rate-limit.ts'
import { pruneIdempotencyKeys } from '../idempotency/idempotency.repository.ts'
import { pruneLeases } from '../rate-limit/lease.repository.ts'
import { pruneSlots } from '../long-lived/stream-slots.repository.ts'

/** One kind of expired row to delete; `now` is the service's clock. */
export type HousekeepingTask = (now: Date) => Promise<void>

export interface Housekeeping {
  /** Adds a task to every hourly run (a capability's own expired rows). */
  add(name: string, task: HousekeepingTask): void
}

declare module 'fastify' {
  interface FastifyInstance {
    housekeeping: Housekeeping
    runHousekeeping(): Promise<void>
  }
}

const EVERY_MS = 3600 * 1000
const FIRST_AFTER_MS = 60 * 1000
const HOUR_MS = 3600 * 1000

export default fp(
  async (app, opts: { clock: Clock }) => {
    const tasks = new Map<string, HousekeepingTask>([
      ['rate-limit windows', (now) => pruneRateLimits(app.db, new Date(now.getTime() - HOUR_MS))],
      ['rate-limit leases', (now) => pruneLeases(app.db, new Date(now.getTime() - HOUR_MS))],
      ['stream slots', () => pruneSlots(app.db)],
      ['idempotency keys', (now) => pruneIdempotencyKeys(app.db, now)],
    ])
    const run = async () => {
      const now = opts.clock.now()
      for (const [name, task] of tasks) {
        try {
          await task(now)
        } catch (err) {
          app.log.warn({ err, task: name }, 'housekeeping task failed; will retry next hour')
        }
      }
    }
    app.decorate('housekeeping', {
      add(name, task) {
        if (tasks.has(name)) throw new Error(`housekeeping task "${name}" added twice`)
        tasks.set(name, task)
      },
    } satisfies Housekeeping)
    app.decorate('runHousekeeping', run)
    runPeriodically(app, FIRST_AFTER_MS, EVERY_MS, run)
  },
  { name: 'housekeeping', dependencies: ['database'] },
)
