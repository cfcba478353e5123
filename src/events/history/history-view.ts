/**
 * History entries and operations as the API answers them (docs/api.md, History and Operations):
 * the actor with the person's name and the client's name, and each change's fields shaped for the
 * caller's scopes (a field the caller may not read is left out, as in records).
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { uuidSet } from '../../db/json-array.ts'
import { clientNames } from '../../oauth/index.ts'
import { recordAccess } from '../../records/index.ts'
import { kindsByName, type KindName } from '../../records/contracts.ts'
import type { AuthContext } from '../../shared/auth-context.ts'
import type { HistoryRow, OperationRow } from './history.repository.ts'

export interface ActorView {
  channel: string
  user: { id: string; name: string; email: string } | null
  client: { id: string; name: string } | null
}

export interface HistoryEntry {
  id: string
  at: string
  action: string
  operation_id: string
  actor: ActorView
  changes: Array<{ field: string; label: string; old: unknown; new: unknown }>
}

export interface RevertStatus {
  operation_id: string
  reverts: string
  state: 'running' | 'succeeded' | 'failed'
  progress: { done: number; total: number }
  conflicts: unknown[]
  reverted: number
}

export interface OperationView {
  id: string
  started_at: string
  ended_at: string
  actor: ActorView
  channel: string
  counts: { created: number; updated: number; deleted: number; restored: number }
  kinds: string[]
  reverted_by: string | null
  reverts: string | null
  revert: RevertStatus | null
}

type Actors = (rows: ReadonlyArray<{ actor_user_id: string | null; actor_client_id: string | null; channel: string }>) => Promise<(row: { actor_user_id: string | null; actor_client_id: string | null; channel: string }) => ActorView>

/** Names of the people and clients of these rows, looked up once for the page. */
export const actorsOf =
  (db: Kysely<DB>): Actors =>
  async (rows) => {
    const userIds = [...new Set(rows.flatMap((r) => (r.actor_user_id ? [r.actor_user_id] : [])))]
    const clientIds = [...new Set(rows.flatMap((r) => (r.actor_client_id ? [r.actor_client_id] : [])))]
    const users = new Map<string, { id: string; name: string; email: string }>()
    if (userIds.length > 0) {
      const res = await sql<{ id: string; name: string; email: string }>`SELECT id, name, email FROM users WHERE id IN ${uuidSet(userIds)}`.execute(db)
      for (const u of res.rows) users.set(u.id, u)
    }
    const clients = await clientNames(db, clientIds)
    return (row) => ({
      channel: row.channel,
      user: row.actor_user_id ? (users.get(row.actor_user_id) ?? { id: row.actor_user_id, name: 'Former member', email: '' }) : null,
      client: row.actor_client_id ? { id: row.actor_client_id, name: clients.get(row.actor_client_id) ?? row.actor_client_id } : null,
    })
  }

/** Columns of a record's JSON that are not changes worth showing. */
const NOT_SHOWN = new Set(['id', 'created_at', 'updated_at'])

/** The changes of one entry the caller may read: updates' old and new, a create's or restore's values, a delete's last values. */
export function changesFor(auth: AuthContext, row: HistoryRow): HistoryEntry['changes'] {
  const kind = kindsByName[row.kind as KindName]
  const hidden = new Set(recordAccess.hiddenFields(kind, auth))
  const label = (field: string) => kind.fields.find((f) => f.name === field)?.label ?? (field === 'custom_fields' ? 'Custom fields' : field === 'src_id' ? 'Source id' : field)
  let pairs: Array<[string, unknown, unknown]> = []
  if (row.changes) pairs = Object.entries(row.changes).map(([field, [old, now]]) => [field, old, now])
  else if (row.snapshot) pairs = Object.entries(row.snapshot).map(([field, value]) => (row.action === 'deleted' ? [field, value, null] : [field, null, value]))
  return pairs
    .filter(([field, old, now]) => !NOT_SHOWN.has(field) && !hidden.has(field) && !(old === null && now === null))
    .map(([field, old, now]) => ({ field, label: label(field), old, new: now }))
}

export function revertStatusOf(row: OperationRow): RevertStatus | null {
  if (!row.reverts || !row.revert_state) return null
  return {
    operation_id: row.id,
    reverts: row.reverts,
    state: row.revert_state,
    progress: { done: row.revert_done, total: row.revert_total },
    conflicts: row.revert_conflicts,
    reverted: row.revert_reverted,
  }
}

export function operationView(row: OperationRow, actor: ActorView): OperationView {
  return {
    id: row.id,
    started_at: row.started_at.toISOString(),
    ended_at: row.ended_at.toISOString(),
    actor,
    channel: row.channel,
    counts: { created: row.created, updated: row.updated, deleted: row.deleted, restored: row.restored },
    kinds: row.kinds,
    reverted_by: row.reverted_by,
    reverts: row.reverts,
    revert: revertStatusOf(row),
  }
}
