/**
 * A record's source identity: the `src_id` it was imported or upserted with, and the aliases a
 * deduplication rule gave it (a source record matched to a record that already existed), which the
 * migration keeps and records reads through the `SourceAliases` port (source-aliases.ts).
 * References from other source records resolve through both. One index probe per key
 * (db/each-key.ts).
 */
import { sql } from 'kysely'
import { eachKey } from '../../db/each-key.ts'
import type { RecordKind } from '../record-kind.ts'
import type { Executor } from '../record.repository.ts'
import type { SourceAliases } from './source-aliases.ts'

export type KnownSourceId = { via: 'record' | 'link'; id: string }

/**
 * How each of these source ids is already known here: a record carrying it as its src_id, or an
 * alias to a record that already existed (with that record's id). A record's own src_id wins over
 * an alias (both cannot normally exist).
 */
export async function knownSourceIds(db: Executor, aliases: SourceAliases, orgId: string, kind: RecordKind, srcIds: readonly string[]): Promise<Map<string, KnownSourceId>> {
  const known = new Map<string, KnownSourceId>()
  if (srcIds.length === 0) return known
  const wanted = [...new Set(srcIds)]
  const r = await sql<{ src_id: string; id: string; via: 'record' | 'link' }>`
    SELECT w.k AS src_id, r.id, 'record' AS via
    FROM ${eachKey(wanted, 'text', 'r', (k) => sql`SELECT id FROM ${sql.table(kind.table)} WHERE org_id = ${orgId} AND src_id = ${k}`)}
    UNION ALL
    SELECT w.k AS src_id, l.record_id AS id, 'link' AS via
    FROM ${eachKey(wanted, 'text', 'l', (k) => aliases.aliasedRecord(orgId, kind.name, k))}`.execute(db)
  for (const row of r.rows) if (!known.has(row.src_id) || row.via === 'record') known.set(row.src_id, { via: row.via, id: row.id })
  return known
}
