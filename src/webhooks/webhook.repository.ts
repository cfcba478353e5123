/**
 * SQL of the webhook endpoints, every statement scoped by organization. Rows come back in the
 * API's shape (secrets never leave this file except sealed, for the dispatcher).
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { TEST_EVENT } from '../events/index.ts'
import type { WebhookFilter } from './filter/filter-grammar.ts'
import { cancelRunningReplay, REPLAY_JSON, type ReplayView } from './replay/replay.repository.ts'

type Executor = Kysely<DB>

export interface WebhookView {
  id: string
  url: string
  events: string[]
  description: string | null
  secret_set: boolean
  status: 'active' | 'disabled'
  disabled_reason: string | null
  disabled_at: string | null
  filter: WebhookFilter | null
  ordering: WebhookOrdering
  payload: WebhookPayload
  created_at: string
  updated_at: string
  delivery_stats: { pending: number; succeeded: number; failed: number; filtered: number; last_attempt_at: string | null }
  /** The latest replay (running or finished), or null. */
  replay: ReplayView | null
}

export type WebhookOrdering = 'none' | 'per_record'
export type WebhookPayload = 'full' | 'thin'

const TS = (col: string) => sql.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)

// Statistics come from the delivery log in one grouped pass per page of webhooks.
const VIEW = (where: ReturnType<typeof sql>, limit: number) => sql<WebhookView>`
  SELECT w.id, w.url, w.events, w.description, w.secret_sealed IS NOT NULL AS secret_set, w.status,
         w.disabled_reason, ${TS('w.disabled_at')} AS disabled_at, w.filter, w.ordering, w.payload, ${TS('w.created_at')} AS created_at,
         ${TS('w.updated_at')} AS updated_at,
         json_build_object(
           'pending', coalesce(s.pending, 0), 'succeeded', coalesce(s.succeeded, 0), 'failed', coalesce(s.failed, 0),
           'filtered', coalesce(s.filtered, 0), 'last_attempt_at', ${TS('s.last_attempt_at')}) AS delivery_stats,
         (SELECT ${REPLAY_JSON} FROM webhook_replays r WHERE r.org_id = w.org_id AND r.webhook_id = w.id ORDER BY r.id DESC LIMIT 1) AS replay
  FROM webhooks w
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE d.status = 'pending')::int AS pending,
           count(*) FILTER (WHERE d.status = 'succeeded')::int AS succeeded,
           count(*) FILTER (WHERE d.status = 'failed')::int AS failed,
           count(*) FILTER (WHERE d.status = 'filtered')::int AS filtered,
           max(d.updated_at) FILTER (WHERE d.attempt_count > 0) AS last_attempt_at
    FROM webhook_deliveries d WHERE d.org_id = w.org_id AND d.webhook_id = w.id
  ) s ON true
  WHERE ${where}
  ORDER BY w.id DESC
  LIMIT ${limit}`

export async function listWebhooks(db: Executor, orgId: string, limit: number, cursor?: string): Promise<WebhookView[]> {
  const where = cursor ? sql`w.org_id = ${orgId} AND w.id < ${cursor}` : sql`w.org_id = ${orgId}`
  return (await VIEW(where, limit).execute(db)).rows
}

export async function findWebhook(db: Executor, orgId: string, id: string): Promise<WebhookView | null> {
  return (await VIEW(sql`w.org_id = ${orgId} AND w.id = ${id}`, 1).execute(db)).rows[0] ?? null
}

export interface NewWebhookRow {
  id: string
  url: string
  events: string[]
  description: string | null
  secretSealed: string | null
  includeAmounts: boolean
  filter: WebhookFilter | null
  ordering: WebhookOrdering
  payload: WebhookPayload
  createdBy: string | null
  at: Date
}

/** Whether the endpoint receives amounts (its registrant, or whoever last re-pointed it, had erp:read). */
export async function receivesAmounts(db: Executor, orgId: string, id: string): Promise<boolean> {
  const r = await sql<{ include_amounts: boolean }>`SELECT include_amounts FROM webhooks WHERE org_id = ${orgId} AND id = ${id}`.execute(db)
  return r.rows[0]?.include_amounts ?? false
}

/** Counts under a lock on the organization, so concurrent creations cannot pass the limit together. */
export async function countWebhooksLocked(trx: Executor, orgId: string): Promise<number> {
  await sql`SELECT id FROM organizations WHERE id = ${orgId} FOR UPDATE`.execute(trx)
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhooks WHERE org_id = ${orgId}`.execute(trx)
  return r.rows[0].n
}

export async function insertWebhook(trx: Executor, orgId: string, row: NewWebhookRow): Promise<void> {
  await sql`
    INSERT INTO webhooks (org_id, id, url, events, description, secret_sealed, include_amounts, filter, ordering, payload, status, created_by, created_at, updated_at)
    VALUES (${orgId}, ${row.id}, ${row.url}, ${row.events}, ${row.description}, ${row.secretSealed}, ${row.includeAmounts}, ${jsonb(row.filter)},
            ${row.ordering}, ${row.payload}, 'active', ${row.createdBy}, ${row.at}, ${row.at})
  `.execute(trx)
}

export interface WebhookChanges {
  url?: string
  events?: string[]
  description?: string | null
  /** undefined: unchanged; null: signing off. */
  secretSealed?: string | null
  includeAmounts?: boolean
  /** undefined: unchanged; null: no filter. */
  filter?: WebhookFilter | null
  ordering?: WebhookOrdering
  payload?: WebhookPayload
  status?: 'active' | 'disabled'
  disabledReason?: string | null
}

const jsonb = (value: unknown) => (value === null || value === undefined ? null : sql`CAST(${JSON.stringify(value)} AS jsonb)`)

/** False when the webhook does not exist in this organization. */
export async function updateWebhook(trx: Executor, orgId: string, id: string, changes: WebhookChanges, at: Date): Promise<boolean> {
  const sets = [sql`updated_at = ${at}`]
  if (changes.url !== undefined) sets.push(sql`url = ${changes.url}`)
  if (changes.events !== undefined) sets.push(sql`events = ${changes.events}`)
  if (changes.description !== undefined) sets.push(sql`description = ${changes.description}`)
  if (changes.secretSealed !== undefined) sets.push(sql`secret_sealed = ${changes.secretSealed}`)
  if (changes.includeAmounts !== undefined) sets.push(sql`include_amounts = ${changes.includeAmounts}`)
  if (changes.filter !== undefined) sets.push(sql`filter = ${jsonb(changes.filter)}`)
  if (changes.ordering !== undefined) sets.push(sql`ordering = ${changes.ordering}`)
  if (changes.payload !== undefined) sets.push(sql`payload = ${changes.payload}`)
  if (changes.status === 'active') sets.push(sql`status = 'active', disabled_reason = NULL, disabled_at = NULL, failing_since = NULL`)
  if (changes.status === 'disabled') sets.push(sql`status = 'disabled', disabled_reason = ${changes.disabledReason ?? 'Disabled by a user.'}, disabled_at = ${at}`)
  const r = await sql`UPDATE webhooks SET ${sql.join(sets)} WHERE org_id = ${orgId} AND id = ${id} RETURNING id`.execute(trx)
  const updated = r.rows.length > 0
  if (updated && changes.status === 'disabled') {
    await failPendingDeliveries(trx, orgId, id, 'The endpoint was disabled before this delivery was sent.', at)
    await cancelRunningReplay(trx, orgId, id, 'The endpoint was disabled.', at)
  }
  if (updated && changes.ordering !== undefined) await orderPendingDeliveries(trx, orgId, id, changes.ordering === 'per_record')
  return updated
}

export async function deleteWebhook(db: Executor, orgId: string, id: string): Promise<boolean> {
  const r = await sql`DELETE FROM webhooks WHERE org_id = ${orgId} AND id = ${id} RETURNING id`.execute(db)
  return r.rows.length > 0
}

/**
 * Ordering applies to what is already queued too: a delivery is ordered when it carries its
 * record's id (the object's id in its body), unordered when it carries none.
 */
async function orderPendingDeliveries(trx: Executor, orgId: string, webhookId: string, ordered: boolean): Promise<void> {
  await sql`
    UPDATE webhook_deliveries
    SET record_id = ${ordered ? sql`CASE WHEN event_type <> ${TEST_EVENT} THEN CAST(CAST(body AS json) -> 'data' -> 'object' ->> 'id' AS uuid) END` : null}
    WHERE org_id = ${orgId} AND webhook_id = ${webhookId} AND status = 'pending'
  `.execute(trx)
}

/** A disabled endpoint's queue is closed: what was waiting is marked failed (and can be retried by hand). */
export async function failPendingDeliveries(trx: Executor, orgId: string, webhookId: string, reason: string, at: Date): Promise<void> {
  await sql`
    UPDATE webhook_deliveries SET status = 'failed', last_error = ${reason}, updated_at = ${at}
    WHERE org_id = ${orgId} AND webhook_id = ${webhookId} AND status = 'pending'
  `.execute(trx)
}
