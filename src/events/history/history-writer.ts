/**
 * Record history and operations, written by the journal (change-journal.ts) in the writing
 * transaction, for every kind and every change (the event journal covers only the catalogue's
 * kinds, and for the change feed's retention): one `record_history` row per record change, and the
 * operation's row (who, when, counts, kinds) created or added to in the same statement.
 *
 * What a row keeps (migration 0031): an update its changed fields as `{field: [old, new]}`; a delete
 * the whole record (a revert restores it with its id); a single create or a restore the record; a
 * bulk create (a change carrying its JSON text: an import or migration page) nothing more than
 * that it happened, so a large load writes small rows.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { jsonTextColumn, textArray } from '../../db/json-array.ts'
import { uuidv7 } from '../../shared/ids.ts'
import { recordChanges, type RecordAction, type RecordChange } from '../../records/index.ts'
import type { EventAuthor } from '../change-events.ts'

interface HistoryRow {
  id: string
  kind: string
  recordId: string
  changes: string | null
  snapshot: string | null
}

/** How an action counts in its operation's totals. */
function countedAs(action: RecordAction): 'created' | 'updated' | 'deleted' | 'restored' {
  return action === 'converted' || action === 'escalated' ? 'updated' : action
}

/** `{field: [old, new]}` of the fields an update changed (updated_at left out). */
export function fieldChanges(change: RecordChange): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {}
  for (const [field, old] of Object.entries(recordChanges.changedFields(change))) out[field] = [old, change.after?.[field] ?? null]
  return out
}

function historyRow(at: Date, action: RecordAction, change: RecordChange): HistoryRow | null {
  const base = { id: uuidv7(at), kind: change.kind.name, recordId: change.id }
  switch (countedAs(action)) {
    case 'created':
      return { ...base, changes: null, snapshot: change.afterText !== undefined ? null : JSON.stringify(change.after) }
    case 'restored':
      return { ...base, changes: null, snapshot: JSON.stringify(change.after) }
    case 'deleted':
      return { ...base, changes: null, snapshot: JSON.stringify(change.before) }
    case 'updated': {
      const changes = fieldChanges(change)
      return Object.keys(changes).length === 0 ? null : { ...base, changes: JSON.stringify(changes), snapshot: null }
    }
  }
}

/** Writes the history of one action's changes and adds them to their operation, in one statement. */
export async function writeHistory(trx: Kysely<DB>, orgId: string, author: EventAuthor, action: RecordAction, changes: readonly RecordChange[], at: Date): Promise<boolean> {
  const rows = changes.flatMap((c) => historyRow(at, action, c) ?? [])
  if (rows.length === 0) return false
  const counted = countedAs(action)
  const kinds = [...new Set(rows.map((r) => r.kind))].sort()
  const { actor, operationId } = author
  const one = (column: string) => sql.raw(column === counted ? String(rows.length) : '0')
  await sql`
    WITH h AS (
      SELECT * FROM ROWS FROM (${jsonTextColumn(rows.map((r) => r.id))}, ${jsonTextColumn(rows.map((r) => r.kind))}, ${jsonTextColumn(rows.map((r) => r.recordId))},
                               ${jsonTextColumn(rows.map((r) => r.changes))}, ${jsonTextColumn(rows.map((r) => r.snapshot))}) AS h(id, kind, record_id, changes, snapshot)
    ),
    written AS (
      INSERT INTO record_history (org_id, id, kind, record_id, action, occurred_at, operation_id, actor_user_id, actor_client_id, channel, changes, snapshot)
      SELECT ${orgId}, CAST(h.id AS uuid), h.kind, CAST(h.record_id AS uuid), ${action}, ${at}, CAST(${operationId} AS uuid), CAST(${actor.user_id} AS uuid),
             ${actor.client_id}, ${actor.channel}, CAST(h.changes AS jsonb), CAST(h.snapshot AS jsonb) FROM h
    )
    INSERT INTO operations AS o (org_id, id, started_at, ended_at, actor_user_id, actor_client_id, channel, created, updated, deleted, restored, kinds)
    VALUES (${orgId}, CAST(${operationId} AS uuid), ${at}, ${at}, CAST(${actor.user_id} AS uuid), ${actor.client_id}, ${actor.channel},
            ${one('created')}, ${one('updated')}, ${one('deleted')}, ${one('restored')}, ${textArray(kinds)})
    ON CONFLICT (org_id, id) DO UPDATE SET
      ended_at = greatest(o.ended_at, EXCLUDED.ended_at),
      created = o.created + EXCLUDED.created, updated = o.updated + EXCLUDED.updated,
      deleted = o.deleted + EXCLUDED.deleted, restored = o.restored + EXCLUDED.restored,
      kinds = ARRAY(SELECT DISTINCT k FROM unnest(o.kinds || EXCLUDED.kinds) AS k ORDER BY k)`.execute(trx)
  return true
}
