/**
 * Deletes what no longer counts: rate-limit windows and API rate-limit leases, lapsed stream slots, OAuth codes and
 * tokens a day past their expiry, webhook deliveries finished more than 30 days ago, idempotency
 * keys past their 24 hours, and tombstones of deleted records after 30 days. Every process runs it
 * hourly (`app.runHousekeeping` runs it now); the deletes are idempotent, so several processes on
 * one PostgreSQL need no coordination.
 */
import fp from 'fastify-plugin'
import { runPeriodically } from './periodic.ts'
import type { Clock } from '../../shared/clock.ts'
import { pruneRateLimits } from '../../shared/rate-limit.ts'
import { pruneExpiredOAuthRows } from '../../oauth/token.repository.ts'
import { pruneDeliveries } from '../../webhooks/delivery.repository.ts'
import { pruneIdempotencyKeys } from '../idempotency/idempotency.repository.ts'
import { pruneLeases } from '../rate-limit/lease.repository.ts'
import { pruneSlots } from '../long-lived/stream-slots.repository.ts'
import { pruneTombstones } from '../../records/index.ts'
import { pruneEvents } from '../../events/index.ts'

declare module 'fastify' {
  interface FastifyInstance {
    runHousekeeping(): Promise<void>
  }
}

const EVERY_MS = 3600 * 1000
const FIRST_AFTER_MS = 60 * 1000
const DELIVERY_LOG_DAYS = 30

export default fp(
  async (app, opts: { clock: Clock }) => {
    const run = async () => {
      const now = opts.clock.now()
      try {
        await pruneRateLimits(app.db, new Date(now.getTime() - 3600 * 1000))
        await pruneLeases(app.db, new Date(now.getTime() - 3600 * 1000))
        await pruneSlots(app.db)
        await pruneExpiredOAuthRows(app.db, now)
        await pruneDeliveries(app.db, new Date(now.getTime() - DELIVERY_LOG_DAYS * 86400 * 1000))
        await pruneIdempotencyKeys(app.db, now)
        await pruneTombstones(app.db, now)
        await pruneEvents(app.db, now, app.config.eventRetentionDays)
      } catch (err) {
        app.log.warn({ err }, 'housekeeping failed; will retry next hour')
      }
    }
    app.decorate('runHousekeeping', run)
    runPeriodically(app, FIRST_AFTER_MS, EVERY_MS, run)
  },
  { name: 'housekeeping', dependencies: ['database'] },
)
