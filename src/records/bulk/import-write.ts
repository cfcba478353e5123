/**
 * The write path of imports (the migration from a source platform): pages of records of one kind
 * written by one upsert keyed by (organization, src_id), so a re-run or a resumed run updates what an
 * earlier one wrote instead of duplicating it (same id, same created_at), and records matched by a
 * deduplication rule updated in place. The statements are the batch endpoint's (bulk-sql.ts); the
 * events, when asked for, go through the same hooks as every other write, in the same transaction.
 *
 * What the importer decides for itself stays with it: how source values map, which source record
 * matches which existing record, and the order of pages. Validation of values happened in its
 * mapping, which only produces values the records' own rules accept (migration/mapping).
 */
import type { WriteTx } from '../write-context.ts'
import type { RecordKind } from '../record-kind.ts'
import type { RecordChange } from '../record.service.ts'
import { insertRows, updateRows, type BulkColumn, type BulkResult, type BulkRow } from './bulk-sql.ts'

export interface ImportedRow extends BulkRow {
  src_id: string
  custom_fields: Record<string, unknown>
}

export interface ImportWriteOptions {
  /** Each row's id back (references set after the page need them). */
  returnIds?: boolean
  /** Emit created/updated events for the records written (the migration's option, off by default). */
  emitEvents?: boolean
}

/** Inserts new source records and updates those imported before; custom_fields merge (source keys win). */
export async function upsertImported(
  tx: WriteTx,
  kind: RecordKind,
  columns: readonly BulkColumn[],
  rows: readonly ImportedRow[],
  now: Date,
  options: ImportWriteOptions = {},
): Promise<BulkResult> {
  const returning = options.emitEvents ? 'json' : options.returnIds ? 'ids' : 'counts'
  const written = await insertRows(tx.trx, tx.writer.auth.orgId, kind, columns, rows, now, { onSrcId: 'update', customFields: 'merge', returning })
  if (options.emitEvents) {
    const created: RecordChange[] = []
    const updated: RecordChange[] = []
    for (const w of written.rows) {
      const after = JSON.parse(w.json!) as Record<string, unknown>
      if (w.inserted) created.push({ kind, id: w.id, after, before: null })
      else updated.push({ kind, id: w.id, after, before: w.before ? (JSON.parse(w.before) as Record<string, unknown>) : after })
    }
    await tx.changed('created', created)
    await tx.changed('updated', updated)
  }
  return written
}

/**
 * Writes source values onto records that already existed (a deduplication rule's `update`), by id.
 * The record takes the source id unless it already carries one; custom_fields merge.
 */
export async function updateMatched(
  tx: WriteTx,
  kind: RecordKind,
  columns: readonly BulkColumn[],
  rows: ReadonlyArray<{ id: string; src_id: string; fields: Record<string, unknown>; custom_fields: Record<string, unknown> }>,
  now: Date,
  options: Pick<ImportWriteOptions, 'emitEvents'> = {},
): Promise<void> {
  if (rows.length === 0) return
  // Every row writes every column: a value the source left empty clears the field, as on insert.
  const full = rows.map((r) => ({ ...r, fields: Object.fromEntries(columns.map((c) => [c.name, r.fields[c.name] ?? null])) }))
  const written = await updateRows(tx.trx, tx.writer.auth.orgId, kind, columns, full, now, { customFields: 'merge', srcId: 'fill', returnJson: options.emitEvents })
  if (options.emitEvents) {
    await tx.changed('updated', written.map((w) => ({ kind, id: w.id, after: JSON.parse(w.after!), before: JSON.parse(w.before!) })))
  }
}
