/**
 * Resolves source ids to the ids of records in this organization: records imported with that
 * src_id, or records a deduplication rule linked the source record to (migration_links). One query
 * per referenced kind per page, whatever the number of references.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { RecordKind } from '../../records/record-kind.ts'
import { arrayLiteral } from './array-literal.ts'

type Executor = Kysely<DB>

export async function resolveSourceIds(db: Executor, orgId: string, kind: RecordKind, srcIds: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  if (srcIds.length === 0) return found
  const wanted = arrayLiteral([...new Set(srcIds)])
  const r = await sql<{ src_id: string; id: string }>`
    SELECT src_id, id FROM ${sql.raw(kind.table)} WHERE org_id = ${orgId} AND src_id = ANY(CAST(${wanted} AS text[]))
    UNION ALL
    SELECT src_id, record_id AS id FROM migration_links WHERE org_id = ${orgId} AND kind = ${kind.name} AND src_id = ANY(CAST(${wanted} AS text[]))`.execute(db)
  // A record imported under its own src_id wins over a link (both cannot normally exist).
  for (const row of r.rows) if (!found.has(row.src_id)) found.set(row.src_id, row.id)
  return found
}

/**
 * How each of these source ids is already known here: imported as a record carrying it, or linked
 * by a deduplication rule to a record that already existed (with that record's id).
 */
export async function knownSourceIds(db: Executor, orgId: string, kind: RecordKind, srcIds: readonly string[]): Promise<Map<string, { via: 'record' | 'link'; id: string }>> {
  const known = new Map<string, { via: 'record' | 'link'; id: string }>()
  if (srcIds.length === 0) return known
  const wanted = arrayLiteral(srcIds)
  const r = await sql<{ src_id: string; id: string; via: 'record' | 'link' }>`
    SELECT src_id, id, 'record' AS via FROM ${sql.raw(kind.table)} WHERE org_id = ${orgId} AND src_id = ANY(CAST(${wanted} AS text[]))
    UNION ALL
    SELECT src_id, record_id AS id, 'link' AS via FROM migration_links WHERE org_id = ${orgId} AND kind = ${kind.name} AND src_id = ANY(CAST(${wanted} AS text[]))`.execute(db)
  for (const row of r.rows) if (!known.has(row.src_id) || row.via === 'record') known.set(row.src_id, { via: row.via, id: row.id })
  return known
}
