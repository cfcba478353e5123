/**
 * The transactional outbox: inside the transaction of every record change, each event goes to the
 * event journal (src/events owns the table and its readers) and gets one delivery row per
 * subscribed active endpoint (carrying the record's id when the endpoint asked for order per
 * record; filters are judged later, when a delivery is about to be sent). The change, its events
 * and its deliveries commit or vanish together, so a crash can never lose an event; the dispatcher
 * sends them afterwards.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { DB } from '../db/database.ts'
import { recordChangeHooks, type RecordChangeHook } from '../records/index.ts'
import { uuidv7 } from '../shared/ids.ts'
import { jsonTextColumn } from '../db/json-array.ts'
import { createdEventBodies, envelope, eventBodies, eventsForChange } from './webhook-events.ts'
import { lockEventCounter } from '../events/sequencer.ts'

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
 *
 * With `counter` (a bulk write holding the organization's journal counter lock, taken by
 * lockEventCounter in an earlier statement), the same statement numbers the committed unnumbered
 * events (what the sequencer would number next), inserts these events numbered after them, and moves
 * the counter past both: src/events/sequencer.ts has the rule and why it holds.
 */
export async function enqueueEvents(trx: Kysely<DB>, orgId: string, events: readonly QueuedEvent[], at: Date, counter?: number): Promise<boolean> {
  if (events.length === 0) return false
  const columns = sql`${jsonTextColumn(events.map((e) => e.id))}, ${jsonTextColumn(events.map((e) => e.type))}, ${jsonTextColumn(events.map((e) => e.recordId))},
                      ${jsonTextColumn(events.map((e) => e.body))}, ${jsonTextColumn(events.map((e) => (e.redactedBody === e.body ? null : e.redactedBody)))}`
  // `redacted` is null where the redacted body is the body (every kind without amounts).
  const journal = counter === undefined ? journalUnnumbered(columns, orgId, at) : journalNumberedAfter(columns, orgId, at, counter, events.length)
  const r = await sql<{ n: number }>`
    WITH ${journal}
    inserted AS (
      INSERT INTO webhook_deliveries (org_id, id, webhook_id, event_id, event_type, body, status, next_attempt_at, created_at, updated_at, record_id)
      SELECT w.org_id, cairn_uuidv7(${at}), w.id, CAST(e.id AS uuid), e.type,
             CASE WHEN w.include_amounts THEN e.body ELSE coalesce(e.redacted, e.body) END,
             'pending', ${at}, ${at}, ${at},
             CASE WHEN w.ordering = 'per_record' THEN CAST(e.record_id AS uuid) END
      FROM e JOIN webhooks w ON w.org_id = ${orgId} AND w.status = 'active' AND e.type = ANY (w.events)
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM inserted
  `.execute(trx)
  return r.rows[0].n > 0
}

/** CTEs `e` (the events) and `journal`: the events go to the journal unnumbered, for the sequencer to number after the commit. */
function journalUnnumbered(columns: RawBuilder<unknown>, orgId: string, at: Date): RawBuilder<unknown> {
  return sql`
    e AS MATERIALIZED (
      SELECT * FROM ROWS FROM (${columns}) AS e(id, type, record_id, body, redacted)
    ),
    journal AS (
      INSERT INTO events (org_id, id, type, record_id, occurred_at, body)
      SELECT ${orgId}, CAST(e.id AS uuid), e.type, CAST(e.record_id AS uuid), ${at}, e.body FROM e
    ),`
}

/**
 * CTEs `e` (the events) and the numbering of a bulk write holding the counter lock: the committed
 * unnumbered events numbered first, then these events after them, then the counter moved past both
 * (src/events/sequencer.ts has the rule).
 */
function journalNumberedAfter(columns: RawBuilder<unknown>, orgId: string, at: Date, counter: number, count: number): RawBuilder<unknown> {
  return sql`
    e AS MATERIALIZED (
      SELECT * FROM ROWS FROM (${columns}) WITH ORDINALITY AS e(id, type, record_id, body, redacted, ord)
    ),
    pending AS MATERIALIZED (
      SELECT id, row_number() OVER (ORDER BY id) AS rn FROM events WHERE org_id = ${orgId} AND seq IS NULL
    ),
    pending_numbered AS (
      UPDATE events p SET seq = CAST(${counter} AS bigint) + pending.rn FROM pending WHERE p.org_id = ${orgId} AND p.id = pending.id
    ),
    base AS (
      SELECT CAST(${counter} AS bigint) + count(*) AS value FROM pending
    ),
    journal AS (
      INSERT INTO events (org_id, id, seq, type, record_id, occurred_at, body)
      SELECT ${orgId}, CAST(e.id AS uuid), base.value + e.ord, e.type, CAST(e.record_id AS uuid), ${at}, e.body FROM e, base
    ),
    counter AS (
      UPDATE org_counters SET value = base.value + ${count} FROM base WHERE org_id = ${orgId} AND name = 'event_seq'
    ),`
}

export const outboxHook: RecordChangeHook = async (trx, auth, action, changes, options) => {
  const at = new Date()
  // Every event is built and journaled, subscribed or not: the journal is the record's history.
  const events: QueuedEvent[] = []
  for (const change of changes) {
    if (action === 'created' && change.afterText !== undefined) {
      // A bulk create: the body is spliced from the record's JSON text (webhook-events.ts).
      const id = uuidv7(at)
      const created = createdEventBodies(id, at, auth.orgId, change)
      if (created) {
        events.push({ id, recordId: change.id, ...created })
        continue
      }
    }
    for (const event of eventsForChange(action, change)) {
      const id = uuidv7(at)
      events.push({ id, type: event.type, recordId: String(event.object.id), ...eventBodies(envelope(id, event.type, at, auth.orgId, event.object, event.previous)) })
    }
  }
  if (!options.numberEvents || events.length === 0) return enqueueEvents(trx, auth.orgId, events, at)
  await options.numberEvents.after
  const counter = await lockEventCounter(trx, auth.orgId)
  await enqueueEvents(trx, auth.orgId, events, at, counter)
  // Numbered already: after the commit, the sequencer's wake-up tells feed streams and the
  // dispatcher (thin deliveries wait for their number) even though it finds nothing to number.
  return true
}

/** Idempotent: several apps in one process (tests) share the one hook list. */
export function installOutbox(): void {
  if (!recordChangeHooks.includes(outboxHook)) recordChangeHooks.push(outboxHook)
}
