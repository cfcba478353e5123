/**
 * Works on migrations in the background: claims those with work to do (leased rows, FOR UPDATE SKIP
 * LOCKED, so any number of processes share the work and none takes a migration another holds),
 * runs their analysis or import, and releases them. A process that dies loses its claims when their
 * lease runs out; whoever claims next continues from the stored checkpoints.
 */
import type { ChangeJournal } from '../../records/index.ts'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Config } from '../../config.ts'
import type { DB } from '../../db/database.ts'
import type { Clock } from '../../shared/clock.ts'
import { startClaimLoop, type ClaimLoop } from '../../shared/claim-loop.ts'
import { randomSecret } from '../../shared/ids.ts'
import type { SecretBox } from '../../shared/secret-box.ts'
import { RUNNER_POLL_MS } from '../migration.defaults.ts'
import { claimMigration, releaseLease } from '../migration.repository.ts'
import { runAnalysis } from './analysis-job.ts'
import { keepClaim } from './claim-keeper.ts'
import { runImport } from './import-job.ts'

export type MigrationRunner = Omit<ClaimLoop, 'stopped'>

export interface RunnerOptions {
  db: Kysely<DB>
  journal: ChangeJournal
  box: SecretBox
  config: Config
  clock: Clock
  log: FastifyBaseLogger
  /** The database has one connection (the embedded one). */
  single: boolean
}

export function startMigrationRunner(opts: RunnerOptions): MigrationRunner {
  const owner = `${process.pid}-${randomSecret(6)}`
  const leaseMs = opts.config.migrationLeaseSeconds * 1000
  const now = () => opts.clock.now()
  const loop: ClaimLoop = startClaimLoop({
    concurrency: opts.config.migrationConcurrency,
    pollMs: RUNNER_POLL_MS,
    log: opts.log,
    what: 'migrations',
    async claimNext() {
      const t = now()
      const m = await claimMigration(opts.db, owner, t, new Date(t.getTime() + leaseMs))
      if (!m) return null
      // Jobs stop at their next page (their gate sees `stopped`) and release their claims, so another
      // process continues at once; a page under way is given time to commit.
      const claim = keepClaim(opts.db, m.org_id, m.id, owner, leaseMs, now, () => loop.stopped)
      const job = { db: opts.db, journal: opts.journal, box: opts.box, config: opts.config, log: opts.log, owner, migration: m, claim, now, single: opts.single }
      return () =>
        (m.status === 'analyzing' ? runAnalysis(job) : runImport(job))
          .catch((err) => opts.log.error({ err, migration: m.id }, 'migration job failed unexpectedly'))
          .finally(async () => {
            claim.stop()
            await releaseLease(opts.db, m.org_id, m.id, owner).catch(() => {})
          })
    },
  })
  return loop
}
