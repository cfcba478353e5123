/**
 * Step 5 of a page, write: the new records and the updated duplicates (through records' import
 * write path, which journals their events when Configure asked), the aliases of linked duplicates,
 * the references left for the re-link pass (with the ids just written), and the page's issues.
 */
import { recordBulk } from '../../../records/index.ts'
import type { WriteTx } from '../../../records/index.ts'
import { insertIssues } from '../../progress.repository.ts'
import type { PageContext } from '../page-context.ts'
import { insertPendingRefs, type PendingRef } from '../relink.ts'
import { addSourceLinks } from '../source-links.ts'
import type { Deduplicated } from './deduplicate.ts'
import type { PageReport } from './page-work.ts'

export async function writeRecords(tx: WriteTx, ctx: PageContext, { rows, links, updates }: Deduplicated, report: PageReport, now: Date): Promise<void> {
  const { trx } = tx
  const { delta, issues } = report
  // Ids come back only when something needs them: links set after the page, or webhook events.
  const needIds = rows.some((p) => p.deferred.length > 0)
  const written = await recordBulk.upsertImported(tx, ctx.kind, ctx.columns, rows.map((p) => p.row), now, { returnIds: needIds, emitEvents: ctx.emitWebhooks })
  await recordBulk.updateMatched(tx, ctx.kind, ctx.columns, updates.map((p) => p.row), now, { emitEvents: ctx.emitWebhooks })
  await addSourceLinks(trx, ctx.orgId, ctx.migrationId, ctx.kind.name, links, now)
  const idBySrc = new Map(written.rows.map((w) => [w.src_id!, w.id]))
  for (const p of updates) idBySrc.set(p.record.src_id, p.row.id)
  const pending: PendingRef[] = []
  for (const p of [...rows, ...updates]) for (const ref of p.deferred) pending.push({ ...ref, record_id: idBySrc.get(p.record.src_id)! })
  await insertPendingRefs(trx, ctx.orgId, ctx.migrationId, pending)
  delta.created += written.created
  delta.updated += written.updated + updates.length

  delta.warnings += await insertIssues(trx, ctx.orgId, ctx.migrationId, issues.filter((i) => i.kind === 'warning'), now)
  await insertIssues(trx, ctx.orgId, ctx.migrationId, issues.filter((i) => i.kind !== 'warning'), now)
}
