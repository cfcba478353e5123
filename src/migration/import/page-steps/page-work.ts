/**
 * What the steps of a page's import pass along: each source record as it is prepared for writing,
 * and the page's report (its issues and counts), which every step may add to.
 */
import type { ImportedRow } from '../../../records/index.ts'
import { uuidv7 } from '../../../shared/ids.ts'
import type { TransformedRecord } from '../../migration.types.ts'
import type { NewIssue, ProgressDelta } from '../../progress.repository.ts'
import type { PageContext } from '../page-context.ts'
import type { PendingRef } from '../relink.ts'

/** One source record on its way: the source values, the mapped record, the row to write. */
export interface Prepared {
  raw: Record<string, unknown>
  record: TransformedRecord
  row: ImportedRow
  /** References to records imported later, set by the re-link pass (record_id filled once written). */
  deferred: PendingRef[]
}

/** The page's issues and counts, written with the page. */
export interface PageReport {
  issues: NewIssue[]
  delta: ProgressDelta
}

export function newReport(processed: number): PageReport {
  return { issues: [], delta: { processed, created: 0, updated: 0, linked: 0, skipped: 0, failed: 0, warnings: 0 } }
}

export function issue(ctx: PageContext, kind: NewIssue['kind'], code: string, srcId: string | null, reason: string, raw: Record<string, unknown> | null, field: string | null = null): NewIssue {
  return { id: uuidv7(), object: ctx.object, src_id: srcId, kind, code, field, reason, source_data: raw }
}
