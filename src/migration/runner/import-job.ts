/**
 * The Migrate step in the background: imports the objects of the run's phase in dependency order
 * from their checkpoints, re-links references to records imported later, and ends with the
 * validation summary: running -> completed | completed_with_errors. On the way the source's
 * allowance may run out (-> paused; a later claim continues), a person may cancel (-> cancelled),
 * or the source may refuse to go on (-> failed with the reason). Records imported are always kept.
 */
import type { Writer } from '../../records/index.ts'
import { kindsByName, type KindName } from '../../records/contracts.ts'
import { sql } from 'kysely'
import { ALL_SCOPES, type AuthContext } from '../../shared/auth-context.ts'
import { runObjectStep } from '../import/object-step.ts'
import { relinkTo, unresolvedRefsAsIssues } from '../import/relink.ts'
import { validationSummary } from '../import/validation.ts'
import { updateClaimedMigration, type MigrationRow } from '../migration.repository.ts'
import { endedPatch, hasNextPhase } from '../migration.service.ts'
import { addWarnings, insertIssues, listObjects, setObjectState, type ObjectRow } from '../progress.repository.ts'
import type { JobContext } from './job-context.ts'
import { describeFailure } from './job-failures.ts'
import { openSourceFor } from './source-access.ts'
import { ownerDirectory } from './owner-directory.ts'

export async function runImport(job: JobContext): Promise<void> {
  const { db, migration: m } = job
  const rows = (await listObjects(db, m.org_id, m.id)).filter((o) => o.phase === (m.phase_current ?? 1))
  let current: ObjectRow | null = null
  try {
    if (m.status === 'paused') await updateClaimedMigration(db, m.org_id, m.id, job.owner, { status: 'running', status_reason: null, resume_at: null }, job.now())
    const connection = await openSourceFor(db, job.box, job.config, m)
    const owners = await ownerDirectory(db, m.org_id, m.source_directory?.users ?? [])
    const recordTypes = new Map((m.source_directory?.record_types ?? []).map((t) => [t.Id, t.DeveloperName]))
    const analyses = new Map(m.report!.objects.map((o) => [o.name, o]))
    const auth: AuthContext = { orgId: m.org_id, userId: m.created_by, role: 'admin', scopes: new Set(ALL_SCOPES), via: 'session' }
    // One operation: every change of the run carries the migration's id and the person who started it.
    const writer: Writer = { auth, actor: { userId: m.created_by, clientId: null, channel: 'migration' }, operationId: m.id, journal: job.journal }

    for (const row of rows) {
      if (row.status === 'completed' || row.status === 'skipped' || row.status === 'failed') continue
      current = row
      await job.claim.gate()
      const total = await connection.count(row.object).catch(() => row.total)
      await setObjectState(db, m.org_id, m.id, row.object, { status: 'running', total, startedAt: job.now() })
      await touch(job)
      await runObjectStep({
        db,
        orgId: m.org_id,
        migrationId: m.id,
        config: m.config!,
        analysis: analyses.get(row.object)!,
        objects: m.report!.objects,
        row,
        connection,
        owners,
        recordTypes,
        writer,
        now: job.now,
        checkpointGate: () => job.claim.gate(),
        single: job.single,
      })
      await relinkTo(db, writer, m.id, row.target as KindName, { journal: m.config!.emit_webhooks })
      await setObjectState(db, m.org_id, m.id, row.object, { status: 'completed', finishedAt: job.now() })
      await touch(job)
      current = null
    }
    await finish(job, rows, writer)
  } catch (err) {
    await stopOnFailure(job, err, current)
  }
}

async function touch(job: JobContext): Promise<void> {
  await updateClaimedMigration(job.db, job.migration.org_id, job.migration.id, job.owner, {}, job.now())
}

/** Last re-link pass, warnings for what stays unlinked, the validation summary, the final state. */
async function finish(job: JobContext, rows: ObjectRow[], writer: Writer): Promise<void> {
  const { db, migration: m } = job
  for (const kind of new Set(Object.keys(kindsByName) as KindName[])) await relinkTo(db, writer, m.id, kind, { journal: m.config!.emit_webhooks })
  const leftovers = await unresolvedRefsAsIssues(db, m.org_id, m.id)
  await insertIssues(db, m.org_id, m.id, leftovers, job.now())
  const perObject = new Map<string, number>()
  for (const i of leftovers) perObject.set(i.object, (perObject.get(i.object) ?? 0) + 1)
  for (const [object, n] of perObject) await addWarnings(db, m.org_id, m.id, object, n)

  const validation = await validationSummary(db, m, await listObjects(db, m.org_id, m.id))
  const troubled = validation.some((v) => v.failed > 0 || v.skipped > 0) || rows.some((r) => r.status === 'failed')
  const status: MigrationRow['status'] = troubled ? 'completed_with_errors' : 'completed'
  const phased = { ...m, status }
  const reason = troubled ? 'Some records failed or were skipped; each is listed with its reason and source data.' : null
  const patch = hasNextPhase(phased) ? { status, status_reason: reason, validation, finished_at: job.now() } : { ...endedPatch(status, reason, job.now()), validation }
  await updateClaimedMigration(db, m.org_id, m.id, job.owner, patch, job.now())
}

async function stopOnFailure(job: JobContext, err: unknown, current: ObjectRow | null): Promise<void> {
  const { db, migration: m } = job
  const failure = describeFailure(err, 'import')
  const now = job.now()
  switch (failure.kind) {
    case 'stop':
      return
    case 'paused':
      await updateClaimedMigration(db, m.org_id, m.id, job.owner, { status: 'paused', status_reason: failure.reason, resume_at: new Date(now.getTime() + job.config.migrationAllowanceRecheckSeconds * 1000) }, now)
      return
    case 'cancelled':
      await sql`UPDATE migration_objects SET status = 'skipped', status_reason = 'Cancelled before it finished.', finished_at = ${now}
                WHERE org_id = ${m.org_id} AND migration_id = ${m.id} AND status IN ('pending', 'running')`.execute(db)
      await updateClaimedMigration(db, m.org_id, m.id, job.owner, endedPatch('cancelled', 'Cancelled by a person; records imported until then are kept.', now), now)
      return
    case 'internal':
    case 'failed':
      // An internal error ends the run like a refusal does, with a generic reason; the log has the rest.
      if (failure.kind === 'internal') job.log.error({ err, migration: m.id, object: current?.object }, 'migration import failed')
      if (current) await setObjectState(db, m.org_id, m.id, current.object, { status: 'failed', reason: failure.reason, finishedAt: now })
      await markNotRun(job)
      await updateClaimedMigration(db, m.org_id, m.id, job.owner, endedPatch('failed', failure.reason, now), now)
  }
}

/**
 * Objects the failed run never reached (of any phase: a failed migration has no next phase) end
 * `not_run`, not `pending`, which would promise work that will never happen.
 */
async function markNotRun(job: JobContext): Promise<void> {
  const { db, migration: m } = job
  await sql`UPDATE migration_objects SET status = 'not_run', status_reason = 'Not run: the import failed before it reached this object.'
            WHERE org_id = ${m.org_id} AND migration_id = ${m.id} AND status = 'pending'`.execute(db)
}
