/**
 * The Analyze step in the background: reads the source platform's metadata (inventory, describes,
 * counts, automation, users, allowance), runs the analyzer, and stores the report:
 * analyzing -> analyzed. Any failure (unreachable or private instance URL, refused token, ...)
 * ends in `failed` with the reason in words, and the source credentials are deleted.
 */
import { sql } from 'kysely'
import { analyzeSource } from '../analysis/analyze.ts'
import { objectsToDescribe } from '../analysis/inventory.ts'
import { ASSUMED_RECORDS_PER_SECOND } from '../migration.defaults.ts'
import { updateClaimedMigration } from '../migration.repository.ts'
import { endedPatch } from '../migration.service.ts'
import { summaryOfReport } from '../migration-view.ts'
import { readSourceMetadata } from '../source/metadata-reader.ts'
import type { JobContext } from './job-context.ts'
import { describeFailure } from './job-failures.ts'
import { openSourceFor } from './source-access.ts'

export async function runAnalysis(job: JobContext): Promise<void> {
  const { db, migration: m } = job
  try {
    const connection = await openSourceFor(db, job.box, job.config, m)
    const metadata = await readSourceMetadata(connection, { objectsToDescribe })
    await job.claim.gate()
    const members = await sql<{ user_id: string; email: string }>`
      SELECT u.id AS user_id, u.email FROM memberships ms JOIN users u ON u.id = ms.user_id WHERE ms.org_id = ${m.org_id}`.execute(db)
    const report = analyzeSource({ ...metadata, environment: m.environment }, { members: members.rows, assumed_records_per_second: ASSUMED_RECORDS_PER_SECOND, now: job.now() })
    await updateClaimedMigration(
      db,
      m.org_id,
      m.id,
      job.owner,
      {
        status: 'analyzed',
        status_reason: null,
        report,
        summary: summaryOfReport(report),
        source_directory: { users: metadata.users, record_types: metadata.record_types },
        source_org_id: metadata.organization_id ?? m.source_org_id,
        analyzed_at: job.now(),
      },
      job.now(),
    )
  } catch (err) {
    const failure = describeFailure(err, 'analysis')
    if (failure.kind === 'stop') return
    if (failure.kind === 'cancelled') {
      await updateClaimedMigration(db, m.org_id, m.id, job.owner, endedPatch('cancelled', 'Cancelled by a person during the analysis.', job.now()), job.now())
      return
    }
    if (failure.kind === 'internal') job.log.error({ err, migration: m.id }, 'migration analysis failed')
    await updateClaimedMigration(db, m.org_id, m.id, job.owner, endedPatch('failed', failure.reason, job.now()), job.now())
  }
}
