/**
 * Runs CSV imports in the background of every process that does background work (SERVICE_ROLE
 * `all` or `worker`): claims an import with work to do (a leased row, FOR UPDATE SKIP LOCKED, so any
 * number of processes share the imports and no two run the same one), renews the lease while it
 * runs, and releases it. A process that dies loses its claim when the lease runs out; whoever
 * claims next resumes after the last committed page. The loop is the migration runner's
 * (shared/claim-loop.ts).
 */
import type { ChangeJournal, SourceAliases } from '../records/index.ts'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { Clock } from '../shared/clock.ts'
import { startClaimLoop, type ClaimLoop } from '../shared/claim-loop.ts'
import { randomSecret } from '../shared/ids.ts'
import { ClaimLost, runImportJob } from './import-job.ts'
import { claimImport, deleteAbandonedChunks, releaseImportLease, renewImportLease } from './import.repository.ts'

/** How often a process looks for imports nobody woke it for (queued elsewhere, or a claim that ran out). */
const POLL_MS = 2_000
/** Uploads that never became an import are deleted this long after their last piece. */
const ABANDONED_UPLOAD_MS = 60 * 60 * 1000
const CLEAN_EVERY_MS = 10 * 60 * 1000
/** Pages of one import written at the same time on PostgreSQL (import-job.ts, OrderedPages; docs/benchmarks.md, "CSV imports": three beat two). */
const PAGES_IN_FLIGHT = 3

export type ImportRunner = Omit<ClaimLoop, 'stopped'>

export interface ImportRunnerOptions {
  db: Kysely<DB>
  /** Where imported record changes go (src/events). */
  journal: ChangeJournal
  /** Where source aliases are looked up (the migration's links, wired in app.ts). */
  sourceAliases: SourceAliases
  clock: Clock
  log: FastifyBaseLogger
  concurrency: number
  leaseSeconds: number
  /** The database has one connection (the embedded one): pages go one at a time. */
  single?: boolean
  /** ANALYZE on the embedded database (app.refreshStatistics), which has no autovacuum. */
  refreshStatistics?(options?: { vacuum?: boolean }): Promise<void>
  /** A name for this runner's claims (tests give two runners in one process different names). */
  owner?: string
  /** How long a page waits for the page ahead with its transaction open (imports/ordered-pages.ts). */
  aheadPatienceMs?: number
}

export function startImportRunner(opts: ImportRunnerOptions): ImportRunner {
  const owner = opts.owner ?? `${process.pid}-${randomSecret(6)}`
  const leaseMs = opts.leaseSeconds * 1000
  const now = () => opts.clock.now()
  let cleanedAt = 0
  const loop: ClaimLoop = startClaimLoop({
    concurrency: opts.concurrency,
    pollMs: POLL_MS,
    log: opts.log,
    what: 'CSV imports',
    async claimNext() {
      const t = now()
      const row = await claimImport(opts.db, owner, t, new Date(t.getTime() + leaseMs))
      if (!row) return null
      let lost = false
      const renew = setInterval(() => {
        renewImportLease(opts.db, row.org_id, row.id, owner, new Date(now().getTime() + leaseMs))
          .then((held) => (lost ||= !held))
          .catch(() => {}) // retried at the next tick; the lease outlasts a few misses
      }, Math.max(250, Math.floor(leaseMs / 3)))
      renew.unref()
      const gate = () => {
        if (lost || loop.stopped) throw new ClaimLost()
      }
      return () =>
        runImportJob({ db: opts.db, journal: opts.journal, sourceAliases: opts.sourceAliases, owner, row, now, gate, pagesInFlight: opts.single ? 1 : PAGES_IN_FLIGHT, refreshStatistics: opts.refreshStatistics, aheadPatienceMs: opts.aheadPatienceMs })
          .catch((err) => opts.log.error({ err, import: row.id }, 'CSV import failed'))
          .finally(async () => {
            clearInterval(renew)
            await releaseImportLease(opts.db, row.org_id, row.id, owner).catch(() => {})
          })
    },
    async afterLook() {
      if (now().getTime() - cleanedAt < CLEAN_EVERY_MS) return
      cleanedAt = now().getTime()
      await deleteAbandonedChunks(opts.db, new Date(cleanedAt - ABANDONED_UPLOAD_MS))
    },
  })
  return loop
}
