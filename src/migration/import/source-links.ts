/**
 * The migration's source links (`migration_links`): a source record a deduplication rule matched
 * to a record that already existed, kept so that references to it, in this run or a later one
 * (and in CSV imports naming source ids), lead to that record. This file is the only code that
 * reads or writes the table; records looks aliases up through the `SourceAliases` port it
 * defines, implemented here.
 */
import { sql } from 'kysely'
import type { Executor, SourceAliases } from '../../records/index.ts'
import type { KindName } from '../../records/contracts.ts'

/** Records' port onto the links: one primary-key probe per source id. */
export const sourceLinks: SourceAliases = {
  aliasedRecord: (orgId, kind, srcId) => sql`SELECT record_id FROM migration_links WHERE org_id = ${orgId} AND kind = ${kind} AND src_id = ${srcId}`,
}

/** Links source records to the records they were matched with: references to them lead there. */
export async function addSourceLinks(db: Executor, orgId: string, migrationId: string, kind: KindName, links: ReadonlyArray<{ src_id: string; record_id: string }>, now: Date): Promise<void> {
  if (links.length === 0) return
  await sql`
    INSERT INTO migration_links (org_id, kind, src_id, record_id, migration_id, created_at)
    SELECT ${orgId}, ${kind}, x.src_id, x.record_id, ${migrationId}, ${now}
    FROM json_to_recordset(CAST(${JSON.stringify(links)} AS json)) AS x(src_id text, record_id uuid)
    ON CONFLICT (org_id, kind, src_id) DO UPDATE SET record_id = EXCLUDED.record_id, migration_id = EXCLUDED.migration_id`.execute(db)
}

/** Whether any record of the kind has a link in the organization (then lookups must read them). */
export async function hasSourceLinks(db: Executor, orgId: string, kind: KindName): Promise<boolean> {
  const r = await sql<{ any: boolean }>`SELECT EXISTS (SELECT 1 FROM migration_links WHERE org_id = ${orgId} AND kind = ${kind}) AS any`.execute(db)
  return r.rows[0].any
}
