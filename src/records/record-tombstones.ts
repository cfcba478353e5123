/**
 * Deleted records as lists still need them (record_tombstones, migration 0011): written by the
 * statement that deletes the records (record-deletion.ts), whether a sorted list can place a
 * cursor, the tombstones sync clients page through (`GET /{kind}/deleted`), and their expiry.
 */
import { CompiledQuery } from 'kysely'
import type { Executor } from './record.repository.ts'
import type { RecordKind } from './record-kind.ts'
import { timestampJson } from './record-sql.ts'

/** Tombstones answer `GET /{kind}/deleted` and place deleted cursors this long. */
export const TOMBSTONE_DAYS = 30

/** What a tombstone keeps of a record: the columns its kind sorts by (created_at's order is the id's). */
function sortColumns(kind: RecordKind): string[] {
  return ['updated_at', ...kind.fields.filter((f) => f.sort && f.name !== 'created_at' && f.name !== 'updated_at').map((f) => f.name)]
}

/**
 * The INSERT of the tombstones of the rows `rows` (a CTE of deleted rows) names, for the statement
 * that deletes them (record-deletion.ts). Migration 0027 dropped the triggers that used to write
 * them: a sharded PostgreSQL (Citus) refuses triggers on distributed tables.
 */
export function tombstonesOf(kind: RecordKind, rows: string): string {
  const values = sortColumns(kind).map((c) => `'${c}', ${rows}.${c}`).join(', ')
  return `INSERT INTO record_tombstones (org_id, kind, id, deleted_at, sort_values)
    SELECT ${rows}.org_id, '${kind.table}', ${rows}.id, now(), jsonb_build_object(${values}) FROM ${rows}
    ON CONFLICT (org_id, kind, id) DO UPDATE SET deleted_at = EXCLUDED.deleted_at, sort_values = EXCLUDED.sort_values`
}

/** True when a sorted list can place this cursor: a live record, or a tombstone (list-sql.ts). */
export async function isKnownPosition(executor: Executor, orgId: string, kind: RecordKind, id: string): Promise<boolean> {
  const text =
    `SELECT EXISTS (SELECT 1 FROM ${kind.table} WHERE org_id = $1 AND id = CAST($2 AS uuid)) ` +
    `OR EXISTS (SELECT 1 FROM record_tombstones WHERE org_id = $1 AND kind = $3 AND id = CAST($2 AS uuid)) AS known`
  const res = await executor.executeQuery<{ known: boolean }>(CompiledQuery.raw(text, [orgId, id, kind.table]))
  return res.rows[0].known
}

export interface TombstonePage {
  data: { id: string; deleted_at: string }[]
  next_cursor: string | null
  has_more: boolean
}

/**
 * Deleted records of a kind, newest deletion first, keyset on (deleted_at, id); the cursor is the
 * last tombstone's id. Null when the cursor names no tombstone (expired, or never one).
 */
export async function listTombstones(
  executor: Executor,
  orgId: string,
  kind: RecordKind,
  opts: { limit: number; cursor?: string; deletedSince?: string },
): Promise<TombstonePage | null> {
  const params: unknown[] = [orgId, kind.table, opts.limit + 1]
  const conditions = ['t.org_id = $1', 't.kind = $2']
  if (opts.deletedSince) {
    params.push(opts.deletedSince)
    conditions.push(`t.deleted_at >= CAST($${params.length} AS timestamptz)`)
  }
  if (opts.cursor) {
    params.push(opts.cursor)
    const c = `CAST($${params.length} AS uuid)`
    conditions.push(`(t.deleted_at, t.id) < ((SELECT c.deleted_at FROM record_tombstones c WHERE c.org_id = $1 AND c.kind = $2 AND c.id = ${c}), ${c})`)
  }
  const text = `SELECT t.id, ${timestampJson('t.deleted_at')} AS deleted_at FROM record_tombstones t WHERE ${conditions.join(' AND ')} ORDER BY t.deleted_at DESC, t.id DESC LIMIT $3`
  const rows = (await executor.executeQuery<{ id: string; deleted_at: string }>(CompiledQuery.raw(text, params))).rows
  if (rows.length === 0 && opts.cursor) {
    const known = await executor.executeQuery(
      CompiledQuery.raw('SELECT 1 FROM record_tombstones WHERE org_id = $1 AND kind = $2 AND id = CAST($3 AS uuid)', [orgId, kind.table, opts.cursor]),
    )
    if (known.rows.length === 0) return null
  }
  const hasMore = rows.length > opts.limit
  const data = hasMore ? rows.slice(0, opts.limit) : rows
  return { data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1].id : null }
}

/** Housekeeping: tombstones older than TOMBSTONE_DAYS. */
export async function pruneTombstones(executor: Executor, now: Date): Promise<void> {
  const before = new Date(now.getTime() - TOMBSTONE_DAYS * 86400 * 1000).toISOString()
  await executor.executeQuery(CompiledQuery.raw('DELETE FROM record_tombstones WHERE deleted_at < CAST($1 AS timestamptz)', [before]))
}
