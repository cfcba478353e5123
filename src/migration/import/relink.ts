/**
 * The re-link pass. A reference to a record that is imported later than the record holding it (an
 * account's parent account further on in the source, a converted lead's opportunity) is stored as a
 * pending reference when the holder is written, and set here once its target's object is done. What
 * still has no target at the end of the run becomes a warning on the holder: imported without that
 * link, never dropped silently.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { jsonArray } from '../../db/json-array.ts'
import { recordBulk, recordChanges, type Writer } from '../../records/index.ts'
import { kindsByName, type KindName } from '../../records/contracts.ts'
import { uuidv7 } from '../../shared/ids.ts'
import type { NewIssue } from '../progress.repository.ts'
import { sourceLinks } from './source-links.ts'

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
 * Per holder field: the pending references are read, records sets those whose target exists
 * (setReferencesBySourceId, one lookup per target), and the ones set are forgotten, in the run's
 * write plan: when the run announces its changes (Configure's emit_webhooks), each holder set is
 * journaled as updated.
 */
export async function relinkTo(db: Executor, writer: Writer, migrationId: string, targetKind: KindName, options: { journal: boolean }): Promise<number> {
  const orgId = writer.auth.orgId
  const groups = await sql<{ kind: KindName; field: string }>`
    SELECT DISTINCT kind, field FROM migration_pending_refs
    WHERE org_id = ${orgId} AND migration_id = ${migrationId} AND target_kind = ${targetKind}`.execute(db)
  let set = 0
  for (const { kind, field } of groups.rows) {
    set += await recordChanges.inWriteTransaction(db, writer, async (tx) => {
      const pending = await sql<{ record_id: string; target_src_id: string }>`
        SELECT record_id, target_src_id FROM migration_pending_refs
        WHERE org_id = ${orgId} AND migration_id = ${migrationId} AND target_kind = ${targetKind} AND kind = ${kind} AND field = ${field}
        FOR UPDATE`.execute(tx.trx)
      const done = await recordBulk.setReferencesBySourceId(tx, sourceLinks, kind, field, targetKind, pending.rows, options)
      if (done.length > 0) {
        await sql`
          DELETE FROM migration_pending_refs
          WHERE org_id = ${orgId} AND migration_id = ${migrationId} AND kind = ${kind} AND field = ${field}
            AND record_id IN (SELECT CAST(e AS uuid) FROM json_array_elements_text(CAST(${jsonArray(done)} AS json)) AS e)`.execute(tx.trx)
      }
      return done.length
    })
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
