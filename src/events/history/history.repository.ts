/**
 * Reads of record history and operations (tables of migration 0031, written by history-writer.ts),
 * their revert bookkeeping, and their retention. Every statement is pinned to one organization but
 * the housekeeping deletes (docs/scale-out.md, Allow-list).
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { uuidSet } from '../../db/json-array.ts'

type Db = Kysely<DB>

export interface HistoryRow {
  id: string
  kind: string
  record_id: string
  action: string
  occurred_at: Date
  operation_id: string
  actor_user_id: string | null
  actor_client_id: string | null
  channel: string
  changes: Record<string, [unknown, unknown]> | null
  snapshot: Record<string, unknown> | null
}

export interface OperationRow {
  id: string
  started_at: Date
  ended_at: Date
  actor_user_id: string | null
  actor_client_id: string | null
  channel: string
  created: number
  updated: number
  deleted: number
  restored: number
  kinds: string[]
  reverts: string | null
  reverted_by: string | null
  revert_state: 'running' | 'succeeded' | 'failed' | null
  revert_force: boolean
  revert_total: number
  revert_done: number
  revert_reverted: number
  revert_conflicts: unknown[]
  revert_lease_until: Date | null
}

/** jsonb arrives parsed from pg and as text from some drivers: one shape for callers. */
function parsed<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T
}

function historyRow(r: HistoryRow): HistoryRow {
  return { ...r, occurred_at: new Date(r.occurred_at), changes: parsed(r.changes), snapshot: parsed(r.snapshot) }
}

function operationRow(r: OperationRow): OperationRow {
  return { ...r, started_at: new Date(r.started_at), ended_at: new Date(r.ended_at), revert_conflicts: parsed(r.revert_conflicts) ?? [], kinds: r.kinds ?? [] }
}

/** One record's history, newest first, `limit + 1` rows after the cursor (a history row id). */
export async function recordHistoryPage(db: Db, orgId: string, kind: string, recordId: string, cursor: string | undefined, limit: number): Promise<HistoryRow[]> {
  const res = await sql<HistoryRow>`
    SELECT id, kind, record_id, action, occurred_at, operation_id, actor_user_id, actor_client_id, channel, changes, snapshot
    FROM record_history
    WHERE org_id = ${orgId} AND record_id = ${recordId} AND kind = ${kind} ${cursor ? sql`AND id < ${cursor}` : sql``}
    ORDER BY id DESC LIMIT ${limit + 1}`.execute(db)
  return res.rows.map(historyRow)
}

/** Every change of one operation, oldest first (what a revert undoes). */
export async function operationChanges(db: Db, orgId: string, operationId: string): Promise<HistoryRow[]> {
  const res = await sql<HistoryRow>`
    SELECT id, kind, record_id, action, occurred_at, operation_id, actor_user_id, actor_client_id, channel, changes, snapshot
    FROM record_history WHERE org_id = ${orgId} AND operation_id = ${operationId} ORDER BY id`.execute(db)
  return res.rows.map(historyRow)
}

/** Of these records, those an operation other than `operationIds` wrote to after `afterId` (an operation's last change). */
export async function changedByOthersSince(db: Db, orgId: string, operationIds: readonly string[], afterId: string, recordIds: readonly string[]): Promise<Set<string>> {
  const res = await sql<{ record_id: string }>`
    SELECT DISTINCT record_id FROM record_history
    WHERE org_id = ${orgId} AND record_id IN ${uuidSet(recordIds)} AND id > ${afterId}
      AND operation_id NOT IN ${uuidSet(operationIds)}`.execute(db)
  return new Set(res.rows.map((r) => r.record_id))
}

export interface OperationFilter {
  clientId?: string
  userId?: string
  channel?: string
  since?: string
}

export async function operationsPage(db: Db, orgId: string, filter: OperationFilter, cursor: string | undefined, limit: number): Promise<OperationRow[]> {
  const conditions = [sql`org_id = ${orgId}`]
  if (filter.clientId) conditions.push(sql`actor_client_id = ${filter.clientId}`)
  if (filter.userId) conditions.push(sql`actor_user_id = ${filter.userId}`)
  if (filter.channel) conditions.push(sql`channel = ${filter.channel}`)
  if (filter.since) conditions.push(sql`ended_at >= CAST(${filter.since} AS timestamptz)`)
  if (cursor) conditions.push(sql`id < ${cursor}`)
  const res = await sql<OperationRow>`SELECT * FROM operations WHERE ${sql.join(conditions, sql` AND `)} ORDER BY id DESC LIMIT ${limit + 1}`.execute(db)
  return res.rows.map(operationRow)
}

export async function findOperation(db: Db, orgId: string, id: string, forUpdate = false): Promise<OperationRow | null> {
  const res = await sql<OperationRow>`SELECT * FROM operations WHERE org_id = ${orgId} AND id = ${id} ${forUpdate ? sql`FOR UPDATE` : sql``}`.execute(db)
  return res.rows[0] ? operationRow(res.rows[0]) : null
}

/**
 * The revert's operation row, before any of its changes: it names what it reverts, and the reverted
 * operation names it (so a second POST finds it).
 */
export async function startRevert(db: Db, orgId: string, revert: { id: string; reverts: string; at: Date; userId: string | null; clientId: string | null; channel: string; force: boolean; total: number; leaseUntil: Date }): Promise<void> {
  await sql`
    WITH marked AS (UPDATE operations SET reverted_by = ${revert.id} WHERE org_id = ${orgId} AND id = ${revert.reverts})
    INSERT INTO operations (org_id, id, started_at, ended_at, actor_user_id, actor_client_id, channel, reverts, revert_state, revert_force, revert_total, revert_lease_until)
    VALUES (${orgId}, ${revert.id}, ${revert.at}, ${revert.at}, ${revert.userId}, ${revert.clientId}, ${revert.channel}, ${revert.reverts}, 'running', ${revert.force}, ${revert.total}, ${revert.leaseUntil})`.execute(db)
}

/** A chunk of the revert done: in the chunk's own transaction, so progress and changes commit together. */
export async function recordRevertProgress(db: Db, orgId: string, revertId: string, done: number, reverted: number, conflicts: readonly unknown[], leaseUntil: Date): Promise<void> {
  await sql`
    UPDATE operations SET revert_done = revert_done + ${done}, revert_reverted = revert_reverted + ${reverted},
      revert_conflicts = revert_conflicts || CAST(${JSON.stringify(conflicts)} AS jsonb), revert_lease_until = ${leaseUntil}
    WHERE org_id = ${orgId} AND id = ${revertId}`.execute(db)
}

export async function finishRevert(db: Db, orgId: string, revertId: string, state: 'succeeded' | 'failed', at: Date): Promise<void> {
  await sql`UPDATE operations SET revert_state = ${state}, revert_lease_until = NULL, ended_at = greatest(ended_at, ${at}) WHERE org_id = ${orgId} AND id = ${revertId}`.execute(db)
}

/** Takes over a running revert whose worker stopped renewing it; false when someone holds it. */
export async function claimRevert(db: Db, orgId: string, revertId: string, now: Date, leaseUntil: Date): Promise<boolean> {
  const res = await sql`
    UPDATE operations SET revert_lease_until = ${leaseUntil}
    WHERE org_id = ${orgId} AND id = ${revertId} AND revert_state = 'running' AND (revert_lease_until IS NULL OR revert_lease_until < ${now})`.execute(db)
  return Number(res.numAffectedRows ?? 0) > 0
}

/** Housekeeping: history and operations older than the retention period. */
export async function pruneHistory(db: Db, now: Date, retentionDays: number): Promise<void> {
  const before = new Date(now.getTime() - retentionDays * 86400 * 1000)
  await sql`DELETE FROM record_history WHERE occurred_at < ${before}`.execute(db)
  await sql`DELETE FROM operations WHERE ended_at < ${before} AND revert_state IS DISTINCT FROM 'running'`.execute(db)
}
