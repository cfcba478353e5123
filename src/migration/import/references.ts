/**
 * Resolves source ids to the ids of records in this organization: records imported with that
 * src_id, or records a deduplication rule linked the source record to (migration_links). One query
 * per referenced kind per page, whatever the number of references.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { RecordKind } from '../../records/record-kind.ts'
import { eachKey } from '../../db/each-key.ts'

type Executor = Kysely<DB>

export type KnownSourceId = { via: 'record' | 'link'; id: string }

/**
 * How each of these source ids is already known here: imported as a record carrying it, or linked
 * by a deduplication rule to a record that already existed (with that record's id). A record
 * imported under its own src_id wins over a link (both cannot normally exist). Each id is one probe
 * of the unique (org_id, src_id) index (each-key.ts).
 */
export async function knownSourceIds(db: Executor, orgId: string, kind: RecordKind, srcIds: readonly string[]): Promise<Map<string, KnownSourceId>> {
  const known = new Map<string, KnownSourceId>()
  if (srcIds.length === 0) return known
  const wanted = [...new Set(srcIds)]
  const r = await sql<{ src_id: string; id: string; via: 'record' | 'link' }>`
    SELECT w.k AS src_id, r.id, 'record' AS via
    FROM ${eachKey(wanted, 'text', 'r', (k) => sql`SELECT id FROM ${sql.table(kind.table)} WHERE org_id = ${orgId} AND src_id = ${k}`)}
    UNION ALL
    SELECT w.k AS src_id, l.record_id AS id, 'link' AS via
    FROM ${eachKey(wanted, 'text', 'l', (k) => sql`SELECT record_id FROM migration_links WHERE org_id = ${orgId} AND kind = ${kind.name} AND src_id = ${k}`)}`.execute(db)
  for (const row of r.rows) if (!known.has(row.src_id) || row.via === 'record') known.set(row.src_id, { via: row.via, id: row.id })
  return known
}
