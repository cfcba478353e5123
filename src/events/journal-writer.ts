/**
 * The statement that journals events in the writing transaction: the events go to the `events`
 * table with their author, and each subscriber (webhooks: their deliveries) adds what it derives
 * from them as a CTE of the same statement, so a single-record write pays one round trip for its
 * events and everything they cause, and all of it commits or vanishes with the change.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { DB } from '../db/database.ts'
import { jsonTextColumn } from '../db/json-array.ts'
import type { EventAuthor } from './change-events.ts'

export interface JournaledEvent {
  id: string
  type: string
  recordId: string
  body: string
  /** The body a reader without erp:read gets (the same text when nothing is hidden). */
  redactedBody: string
}

/**
 * Adds to the journal statement. The CTE `e` holds the events being written: `id`, `type`,
 * `record_id` (text), `body`, and `redacted` (null where it equals `body`). A subscriber's CTE must
 * be a data-modifying statement (it runs whether or not anything reads it).
 */
export type JournalFragment = (orgId: string, at: Date) => RawBuilder<unknown>

/**
 * Writes the events. With `counter` (a bulk write holding the organization's journal counter lock,
 * taken by lockEventCounter in an earlier statement), the same statement numbers the committed
 * unnumbered events (what the sequencer would number next), inserts these events numbered after
 * them, and moves the counter past both: src/events/sequencer.ts has the rule and why it holds.
 */
export async function journalEvents(trx: Kysely<DB>, orgId: string, author: EventAuthor, events: readonly JournaledEvent[], at: Date, fragments: readonly JournalFragment[], counter?: number): Promise<void> {
  if (events.length === 0) return
  const columns = sql`${jsonTextColumn(events.map((e) => e.id))}, ${jsonTextColumn(events.map((e) => e.type))}, ${jsonTextColumn(events.map((e) => e.recordId))},
                      ${jsonTextColumn(events.map((e) => e.body))}, ${jsonTextColumn(events.map((e) => (e.redactedBody === e.body ? null : e.redactedBody)))}`
  const journal = counter === undefined ? unnumbered(columns, orgId, author, at) : numberedAfter(columns, orgId, author, at, counter, events.length)
  const added = fragments.map((fragment, i) => sql`, ${sql.ref(`subscriber_${i}`)} AS (${fragment(orgId, at)})`)
  await sql`WITH ${journal}${sql.join(added, sql``)} SELECT 1`.execute(trx)
}

/** The author's columns, the same for every event of one statement (one writer). */
function authorValues(author: EventAuthor): RawBuilder<unknown> {
  return sql`CAST(${author.actor.user_id} AS uuid), CAST(${author.actor.client_id} AS text), CAST(${author.actor.channel} AS text), CAST(${author.operationId} AS uuid)`
}

/** CTEs `e` (the events) and `journal`: the events go to the journal unnumbered, for the sequencer to number after the commit. */
function unnumbered(columns: RawBuilder<unknown>, orgId: string, author: EventAuthor, at: Date): RawBuilder<unknown> {
  return sql`
    e AS MATERIALIZED (
      SELECT * FROM ROWS FROM (${columns}) AS e(id, type, record_id, body, redacted)
    ),
    journal AS (
      INSERT INTO events (org_id, id, type, record_id, occurred_at, body, actor_user_id, actor_client_id, channel, operation_id)
      SELECT ${orgId}, CAST(e.id AS uuid), e.type, CAST(e.record_id AS uuid), ${at}, e.body, ${authorValues(author)} FROM e
    )`
}

/**
 * CTEs `e` (the events) and the numbering of a bulk write holding the counter lock: the committed
 * unnumbered events numbered first, then these events after them, then the counter moved past both
 * (src/events/sequencer.ts has the rule).
 */
function numberedAfter(columns: RawBuilder<unknown>, orgId: string, author: EventAuthor, at: Date, counter: number, count: number): RawBuilder<unknown> {
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
      INSERT INTO events (org_id, id, seq, type, record_id, occurred_at, body, actor_user_id, actor_client_id, channel, operation_id)
      SELECT ${orgId}, CAST(e.id AS uuid), base.value + e.ord, e.type, CAST(e.record_id AS uuid), ${at}, e.body, ${authorValues(author)} FROM e, base
    ),
    counter AS (
      UPDATE org_counters SET value = base.value + ${count} FROM base WHERE org_id = ${orgId} AND name = 'event_seq'
    )`
}
