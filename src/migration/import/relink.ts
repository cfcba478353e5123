/**
 * The re-link pass. A reference to a record that is imported later than the record holding it (an
 * account's parent account further on in the source, a converted lead's opportunity) is stored as a
 * pending reference when the holder is written, and set here once its target's object is done. What
 * still has no target at the end of the run becomes a warning on the holder: imported without that
 * link, never dropped silently.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { DB } from '../../db/database.ts'
import { kindsByName } from '../../records/kinds/index.ts'
import type { KindName } from '../../records/record-kind.ts'
import { uuidv7 } from '../../shared/ids.ts'
import type { NewIssue } from '../progress.repository.ts'

type Executor = Kysely<DB>

export interface PendingRef {
  object: string
  kind: KindName
  record_id: string
  src_id: string
  field: string
  target_kind: KindName
  target_src_id: string
}

export async function insertPendingRefs(db: Executor, orgId: string, migrationId: string, refs: readonly PendingRef[]): Promise<void> {
  if (refs.length === 0) return
  await sql`
    INSERT INTO migration_pending_refs (org_id, migration_id, object, kind, record_id, src_id, field, target_kind, target_src_id)
    SELECT ${orgId}, ${migrationId}, x.object, x.kind, x.record_id, x.src_id, x.field, x.target_kind, x.target_src_id
    FROM json_to_recordset(CAST(${JSON.stringify(refs)} AS json))
      AS x(object text, kind text, record_id uuid, src_id text, field text, target_kind text, target_src_id text)
    ON CONFLICT (org_id, migration_id, kind, record_id, field) DO UPDATE SET target_src_id = EXCLUDED.target_src_id`.execute(db)
}

/**
 * Sets the pending references to records of `targetKind` that exist now; returns how many were set.
 *
 * One statement per holder field: the pending references whose target exists are deleted, and their
 * holders updated from the deleted rows, both on one snapshot. Each target is looked up on its own
 * (a subquery per row, which PostgreSQL cannot turn into a join whose plan depends on statistics):
 * the earlier form joined the updated rows back to the pending ones, which PostgreSQL planned as a
 * nested loop over both on an import's never-analyzed tables, quadratic in the number of pending
 * references (2.4 s for the 3,962 parent accounts of the 1M benchmark).
 */
export async function relinkTo(db: Executor, orgId: string, migrationId: string, targetKind: KindName): Promise<number> {
  const target = kindsByName[targetKind]
  const groups = await sql<{ kind: KindName; field: string }>`
    SELECT DISTINCT kind, field FROM migration_pending_refs
    WHERE org_id = ${orgId} AND migration_id = ${migrationId} AND target_kind = ${targetKind}`.execute(db)
  const imported = (srcId: RawBuilder<unknown>) => sql`SELECT id FROM ${sql.table(target.table)} WHERE org_id = ${orgId} AND src_id = ${srcId} LIMIT 1`
  const linked = (srcId: RawBuilder<unknown>) => sql`SELECT record_id FROM migration_links WHERE org_id = ${orgId} AND kind = ${targetKind} AND src_id = ${srcId} LIMIT 1`
  let set = 0
  for (const { kind, field } of groups.rows) {
    const holder = kindsByName[kind]
    if (!holder.fields.some((f) => f.name === field)) throw new Error(`pending reference to unknown field ${kind}.${field}`)
    const r = await sql<{ record_id: string }>`
      WITH done AS (
        DELETE FROM migration_pending_refs p
        WHERE p.org_id = ${orgId} AND p.migration_id = ${migrationId} AND p.target_kind = ${targetKind}
          AND p.kind = ${kind} AND p.field = ${field}
          AND (EXISTS (${imported(sql`p.target_src_id`)}) OR EXISTS (${linked(sql`p.target_src_id`)}))
        RETURNING p.record_id, p.target_src_id
      )
      UPDATE ${sql.table(holder.table)} r SET ${sql.ref(field)} = COALESCE((${imported(sql`done.target_src_id`)}), (${linked(sql`done.target_src_id`)}))
      FROM done WHERE r.org_id = ${orgId} AND r.id = done.record_id
      RETURNING r.id AS record_id`.execute(db)
    set += r.rows.length
  }
  return set
}

/** The references still pending after every pass, as warnings of their holders (then forgotten). */
export async function unresolvedRefsAsIssues(db: Executor, orgId: string, migrationId: string): Promise<NewIssue[]> {
  const r = await sql<PendingRef>`
    DELETE FROM migration_pending_refs WHERE org_id = ${orgId} AND migration_id = ${migrationId}
    RETURNING object, kind, record_id, src_id, field, target_kind, target_src_id`.execute(db)
  return r.rows.map((p) => ({
    id: uuidv7(),
    object: p.object,
    src_id: p.src_id,
    kind: 'warning' as const,
    code: 'missing_parent',
    field: p.field,
    reason: `Imported without its ${kindsByName[p.target_kind].label.toLowerCase()} link (${p.field}): the source record ${p.target_src_id} it points to was not imported.`,
    source_data: null,
  }))
}
