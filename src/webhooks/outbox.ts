/**
 * The transactional outbox: inside the transaction of every record change, each event goes to the
 * event journal (src/events owns the table and its readers) and gets one delivery row per
 * subscribed active endpoint. The change, its events and its deliveries commit or vanish together,
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
  recordId: string
  body: string
  redactedBody: string
}

/**
 * True when at least one delivery was queued. One statement for the journal rows and the deliveries
 * of all events and all endpoints: a single-record write pays one round trip for its events.
 */
export async function enqueueEvents(trx: Kysely<DB>, orgId: string, events: readonly QueuedEvent[], at: Date): Promise<boolean> {
  if (events.length === 0) return false
  const column = (values: ReadonlyArray<string | null>) => sql`json_array_elements_text(CAST(${jsonArray(values)} AS json))`
  // `redacted` is null where the redacted body is the body (every kind without amounts).
  const r = await sql<{ n: number }>`
    WITH e AS MATERIALIZED (
      SELECT * FROM ROWS FROM (${column(events.map((e) => e.id))}, ${column(events.map((e) => e.type))}, ${column(events.map((e) => e.recordId))},
                              ${column(events.map((e) => e.body))}, ${column(events.map((e) => (e.redactedBody === e.body ? null : e.redactedBody)))})
        AS e(id, type, record_id, body, redacted)
    ),
    journal AS (
      INSERT INTO events (org_id, id, type, record_id, occurred_at, body)
      SELECT ${orgId}, CAST(e.id AS uuid), e.type, CAST(e.record_id AS uuid), ${at}, e.body FROM e
    ),
    inserted AS (
      INSERT INTO webhook_deliveries (org_id, id, webhook_id, event_id, event_type, body, status, next_attempt_at, created_at, updated_at)
      SELECT w.org_id, cairn_uuidv7(${at}), w.id, CAST(e.id AS uuid), e.type,
             CASE WHEN w.include_amounts THEN e.body ELSE coalesce(e.redacted, e.body) END,
             'pending', ${at}, ${at}, ${at}
      FROM e JOIN webhooks w ON w.org_id = ${orgId} AND w.status = 'active' AND e.type = ANY (w.events)
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM inserted
  `.execute(trx)
  return r.rows[0].n > 0
}

export const outboxHook: RecordChangeHook = async (trx, auth, action, changes) => {
  const at = new Date()
  // Every event is built and journaled, subscribed or not: the journal is the record's history.
  const events: QueuedEvent[] = []
  for (const change of changes) {
    for (const event of eventsForChange(action, change)) {
      const id = uuidv7(at)
      events.push({ id, type: event.type, recordId: String(event.object.id), ...eventBodies(envelope(id, event.type, at, auth.orgId, event.object, event.previous)) })
    }
  }
  return enqueueEvents(trx, auth.orgId, events, at)
}

/** Idempotent: several apps in one process (tests) share the one hook list. */
export function installOutbox(): void {
  if (!recordChangeHooks.includes(outboxHook)) recordChangeHooks.push(outboxHook)
}
