/**
 * The transactional outbox: inside the transaction of every record change, one delivery row per
 * event and subscribed active endpoint. The change and its deliveries commit or vanish together,
 * so a crash can never lose an event; the dispatcher sends them afterwards.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { recordChangeHooks, type RecordChangeHook } from '../records/index.ts'
import { uuidv7 } from '../shared/ids.ts'
import { jsonArray } from '../db/json-array.ts'
import { envelope, eventBodies, eventsForChange } from './webhook-events.ts'

/**
 * The channel API actions (test event, manual retry) wake every process's dispatcher on. The outbox
 * does not NOTIFY: that takes a database-wide lock at every commit; record writes wake this
 * process's dispatcher after their commit, and other processes find the rows at their next poll.
 */
export const DELIVERIES_CHANNEL = 'cairn_webhook_deliveries'

export interface QueuedEvent {
  id: string
  type: string
  body: string
  redactedBody: string
}

/** True when at least one delivery was queued: one statement for all events and all endpoints. */
export async function enqueueEvents(trx: Kysely<DB>, orgId: string, events: readonly QueuedEvent[], at: Date): Promise<boolean> {
  if (events.length === 0) return false
  const column = (values: string[]) => sql`json_array_elements_text(CAST(${jsonArray(values)} AS json))`
  const r = await sql<{ n: number }>`
    WITH inserted AS (
      INSERT INTO webhook_deliveries (org_id, id, webhook_id, event_id, event_type, body, status, next_attempt_at, created_at, updated_at)
      SELECT w.org_id, cairn_uuidv7(${at}), w.id, CAST(e.id AS uuid), e.type,
             CASE WHEN w.include_amounts THEN e.body ELSE e.redacted END,
             'pending', ${at}, ${at}, ${at}
      FROM ROWS FROM (${column(events.map((e) => e.id))}, ${column(events.map((e) => e.type))}, ${column(events.map((e) => e.body))}, ${column(events.map((e) => e.redactedBody))})
           AS e(id, type, body, redacted)
      JOIN webhooks w ON w.org_id = ${orgId} AND w.status = 'active' AND e.type = ANY (w.events)
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM inserted
  `.execute(trx)
  return r.rows[0].n > 0
}

/** The event types some active endpoint of the organization subscribes to. */
async function subscribedTypes(trx: Kysely<DB>, orgId: string): Promise<Set<string>> {
  const r = await sql<{ type: string }>`
    SELECT DISTINCT t AS type FROM webhooks w CROSS JOIN LATERAL unnest(w.events) AS t
    WHERE w.org_id = ${orgId} AND w.status = 'active'`.execute(trx)
  return new Set(r.rows.map((row) => row.type))
}

export const outboxHook: RecordChangeHook = async (trx, auth, action, changes) => {
  const at = new Date()
  // A bulk write first asks which types anyone subscribes to: building and sending the bodies of
  // 1,000 events to join them against no endpoint was 18% of a batch's service time. A single
  // change keeps its one statement (the join finds the endpoints, or none).
  const wanted = changes.length > 1 ? await subscribedTypes(trx, auth.orgId) : null
  if (wanted?.size === 0) return false
  const events: QueuedEvent[] = []
  for (const change of changes) {
    for (const event of eventsForChange(action, change)) {
      if (wanted && !wanted.has(event.type)) continue
      const id = uuidv7(at)
      events.push({ id, type: event.type, ...eventBodies(envelope(id, event.type, at, auth.orgId, event.object, event.previous)) })
    }
  }
  return enqueueEvents(trx, auth.orgId, events, at)
}

/** Idempotent: several apps in one process (tests) share the one hook list. */
export function installOutbox(): void {
  if (!recordChangeHooks.includes(outboxHook)) recordChangeHooks.push(outboxHook)
}
