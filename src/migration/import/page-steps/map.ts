/**
 * Step 1 of a page, map: source values -> target values (the mapping and Configure's custom
 * fields). A record the mapping refuses is a failure recorded with its source data; mapping
 * warnings become issues. Before the page's transaction: no database.
 */
import { transformRecord } from '../../mapping/transform-record.ts'
import { applyImportedFields } from '../custom-field-definitions.ts'
import type { PageContext } from '../page-context.ts'
import { importedRecordId } from '../record-ids.ts'
import { issue, type PageReport, type Prepared } from './page-work.ts'

// Records mapped between two turns of the event loop: mapping a whole page at once held up the
// answers of the page ahead's queries for tens of milliseconds, and the database waited meanwhile.
const MAP_SLICE = 250

export async function mapRecords(ctx: PageContext, records: readonly Record<string, unknown>[], report: PageReport): Promise<Prepared[]> {
  const kept: Prepared[] = []
  let mapped = 0
  for (const raw of records) {
    if (++mapped % MAP_SLICE === 0) await new Promise((resolve) => setImmediate(resolve))
    const out = transformRecord(ctx.mapping, raw)
    const srcId = typeof raw.Id === 'string' ? raw.Id : null
    if (!out.ok) {
      report.issues.push(issue(ctx, 'failed', out.code, srcId, out.reason, raw))
      report.delta.failed++
      continue
    }
    const r = out.record
    if (ctx.customFieldTargets.size > 0) r.warnings.push(...applyImportedFields(r.custom_fields, ctx.customFieldTargets))
    for (const w of r.warnings) report.issues.push(issue(ctx, 'warning', w.code, r.src_id, w.reason, null, w.field ?? null))
    kept.push({ raw, record: r, row: { id: importedRecordId(r.created_at, r.src_id), src_id: r.src_id, created_at: r.created_at, fields: r.fields, custom_fields: r.custom_fields }, deferred: [] })
  }
  return kept
}
