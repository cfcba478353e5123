/**
 * A record's source identity: the `src_id` it was imported or upserted with, and the aliases a
 * deduplication rule gave it (a source record matched to a record that already existed, stored in
 * `migration_links`, which records reads and writes on the importer's behalf). References from
 * other source records resolve through both. One index probe per key (db/each-key.ts).
 */
import { sql } from 'kysely'
import { eachKey } from '../../db/each-key.ts'
import type { KindName, RecordKind } from '../record-kind.ts'
import type { Executor } from '../record.repository.ts'

export type KnownSourceId = { via: 'record' | 'link'; id: string }

/**
 * How each of these source ids is already known here: a record carrying it as its src_id, or an
 * alias to a record that already existed (with that record's id). A record's own src_id wins over
 * an alias (both cannot normally exist).
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

/** Gives records aliases: references to these source ids lead to the records matched. */
export async function addSourceAliases(db: Executor, orgId: string, migrationId: string, kind: KindName, links: ReadonlyArray<{ src_id: string; record_id: string }>, now: Date): Promise<void> {
  if (links.length === 0) return
  await sql`
    INSERT INTO migration_links (org_id, kind, src_id, record_id, migration_id, created_at)
    SELECT ${orgId}, ${kind}, x.src_id, x.record_id, ${migrationId}, ${now}
    FROM json_to_recordset(CAST(${JSON.stringify(links)} AS json)) AS x(src_id text, record_id uuid)
    ON CONFLICT (org_id, kind, src_id) DO UPDATE SET record_id = EXCLUDED.record_id, migration_id = EXCLUDED.migration_id`.execute(db)
}

/** Whether any record of the kind has an alias in the organization (then lookups must read them). */
export async function hasSourceAliases(db: Executor, orgId: string, kind: KindName): Promise<boolean> {
  const r = await sql<{ any: boolean }>`SELECT EXISTS (SELECT 1 FROM migration_links WHERE org_id = ${orgId} AND kind = ${kind}) AS any`.execute(db)
  return r.rows[0].any
}
