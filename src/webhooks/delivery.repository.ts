/**
 * SQL of the delivery queue and its log: claiming due deliveries (`FOR UPDATE SKIP LOCKED`, so any
 * number of processes share the queue without sending one delivery twice), recording each attempt,
 * and reading the log a page at a time.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { WebhookFilter } from './filter/filter-grammar.ts'

type Executor = Kysely<DB>

export interface ClaimedDelivery {
  org_id: string
  id: string
  webhook_id: string
  event_id: string
  event_type: string
  body: string
  attempt_count: number
  url: string
  secret_sealed: string | null
  webhook_status: 'active' | 'disabled'
  failing_since: Date | null
  /** The endpoint's filter, judged when the delivery is about to be sent (null: none). */
  filter: WebhookFilter | null
  /** thin: the endpoint receives `{id, seq, type, timestamp, object_id}` only. */
  payload: 'full' | 'thin'
  /** The event's journal position; read for thin endpoints only (null otherwise). */
  event_seq: string | null
  /** Set for deliveries of an ordered endpoint (`ordering: per_record`). */
  record_id: string | null
}

/** How many organizations one look at the queue considers; the rest wait for the next look. */
const DISCOVERY_LIMIT = 100

/**
 * Organizations with deliveries due, a plain read without locks: on Citus one statement to every
 * shard (docs/scale-out.md, Query rules, allow-list), so each claim after it locks rows of one
 * organization only, never with a multi-shard FOR UPDATE.
 */
async function organizationsWithDueDeliveries(db: Executor, now: Date): Promise<string[]> {
  const r = await sql<{ org_id: string }>`SELECT DISTINCT org_id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ${now} LIMIT ${DISCOVERY_LIMIT}`.execute(db)
  return r.rows.map((x) => x.org_id)
}

/**
 * Takes up to `limit` due deliveries and leases them until `leaseUntil`: the row stays `pending`
 * with a later due time, so if this process dies mid-send the delivery simply comes due again.
 * Claims organization by organization.
 */
export async function claimDueDeliveries(db: Executor, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
  const claimed: ClaimedDelivery[] = []
  for (const orgId of await organizationsWithDueDeliveries(db, now)) {
    if (claimed.length >= limit) break
    claimed.push(...(await claimDueDeliveriesOf(db, orgId, now, leaseUntil, limit - claimed.length)))
  }
  return claimed
}

async function claimDueDeliveriesOf(db: Executor, orgId: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
  const r = await sql<ClaimedDelivery>`
    WITH ${claimCtes(orgId, now, leaseUntil, limit, sql``)}
    ${CLAIMED}
  `.execute(db)
  return r.rows
}

/*
 * How the dispatcher's statements are shaped, and why:
 * - Tables are named in the order webhooks, webhook_deliveries, webhook_attempts (the order in
 *   which their foreign keys chain, and in which TRUNCATE ... CASCADE or other DDL locks them):
 *   PostgreSQL locks the tables of a statement in the order it reads them, WITH list first, so a
 *   statement that named them the other way round could deadlock against such a lock.
 * - The rows a claim locks are updated by ctid, the version just locked (a TID scan), not looked up
 *   again through the primary key.
 */

// CTEs `due` (the rows to claim, locked, with their endpoint) and `claimed` (leased). `exclude` adds
// a condition on the candidate delivery `d`.
const claimCtes = (orgId: string, now: Date, leaseUntil: Date, limit: number, exclude: ReturnType<typeof sql>) => sql`
  due AS (
    SELECT d.ctid, d.org_id, d.id, w.url, w.secret_sealed, w.status AS webhook_status, w.failing_since, w.filter, w.payload, ev.seq AS event_seq
    FROM webhooks w JOIN webhook_deliveries d ON d.org_id = w.org_id AND d.webhook_id = w.id
    -- The event's seq, looked up once and for thin endpoints only: OFFSET 0 keeps the subquery from
    -- being pulled up into a join, which turned the payload test into a join filter applied after
    -- an index lookup of every claimed delivery's event; here it is a one-time filter, tested first.
    LEFT JOIN LATERAL (SELECT e.seq FROM events e WHERE w.payload = 'thin' AND e.org_id = d.org_id AND e.id = d.event_id OFFSET 0) ev ON true
    WHERE d.org_id = ${orgId} AND d.status = 'pending' AND d.next_attempt_at <= ${now} ${exclude}
      -- A thin body carries the event's seq: it waits for the sequencer (moments after the commit).
      AND (w.payload = 'full' OR d.event_type = 'webhook.test' OR ev.seq IS NOT NULL)
      AND (d.record_id IS NULL OR NOT EXISTS (
        SELECT 1 FROM webhook_deliveries e
        WHERE e.org_id = d.org_id AND e.webhook_id = d.webhook_id AND e.record_id = d.record_id AND e.status = 'pending'
          AND (e.event_id, e.id) < (d.event_id, d.id)))
    ORDER BY d.next_attempt_at
    LIMIT ${limit}
    FOR UPDATE OF d SKIP LOCKED
  ), claimed AS (
    UPDATE webhook_deliveries d
    SET next_attempt_at = ${leaseUntil}, attempt_count = d.attempt_count + 1, updated_at = ${now}
    WHERE d.org_id = ${orgId} AND d.ctid = ANY (ARRAY(SELECT ctid FROM due))
    RETURNING d.org_id, d.id, d.webhook_id, d.event_id, d.event_type, d.body, d.attempt_count, d.record_id
  )`

const CLAIMED = sql`
  SELECT c.*, due.url, due.secret_sealed, due.webhook_status, due.failing_since, due.filter, due.payload, due.event_seq
  FROM claimed c JOIN due ON due.org_id = c.org_id AND due.id = c.id`

export interface AttemptResult {
  startedAt: Date
  statusCode: number | null
  latencyMs: number
  error: string | null
  responseBody: string | null
  /** What happens to the delivery: done, tried again at a time, or given up. */
  outcome: { status: 'succeeded' } | { status: 'pending'; nextAttemptAt: Date } | { status: 'failed' }
}

/**
 * Writes an attempt's outcome. False when the delivery is gone: its webhook was deleted while the
 * attempt was under way (the deletion cascades to its deliveries), an expected race with nothing
 * left to write. The attempt row is inserted only for a delivery this statement updated, whose row
 * it then holds locked: inserting it regardless failed the foreign key (docs/webhooks.md).
 */
export async function recordAttempt(db: Executor, d: Pick<ClaimedDelivery, 'org_id' | 'id' | 'attempt_count'>, result: AttemptResult, now: Date): Promise<boolean> {
  const next = result.outcome.status === 'pending' ? result.outcome.nextAttemptAt : now
  // Delivery state and attempt row in one statement (one round trip per delivery).
  const r = await sql<{ kept: boolean }>`
    WITH delivery AS (
      UPDATE webhook_deliveries
      SET status = ${result.outcome.status}, next_attempt_at = ${next}, last_status_code = ${result.statusCode},
          last_error = ${result.error}, updated_at = ${now}
      WHERE org_id = ${d.org_id} AND id = ${d.id}
      RETURNING org_id, id
    ), attempt AS (
      INSERT INTO webhook_attempts (org_id, delivery_id, attempt, started_at, status_code, latency_ms, error, response_body)
      SELECT org_id, id, ${d.attempt_count}, ${result.startedAt}, ${result.statusCode}, ${Math.round(result.latencyMs)}, ${result.error}, ${result.responseBody}
      FROM delivery
      ON CONFLICT DO NOTHING
    )
    SELECT EXISTS (SELECT 1 FROM delivery) AS kept
  `.execute(db)
  return r.rows[0]?.kept === true
}

/**
 * The endpoint's filter refused the event when it was about to be sent: no request, no attempt row;
 * the claim's count is taken back so the log shows 0 attempts.
 */
export async function recordFiltered(db: Executor, d: Pick<ClaimedDelivery, 'org_id' | 'id'>, now: Date): Promise<void> {
  await sql`
    UPDATE webhook_deliveries SET status = 'filtered', attempt_count = attempt_count - 1, next_attempt_at = ${now}, updated_at = ${now}
    WHERE org_id = ${d.org_id} AND id = ${d.id} AND status = 'pending'
  `.execute(db)
}

export interface Success {
  delivery: Pick<ClaimedDelivery, 'org_id' | 'id' | 'attempt_count' | 'record_id'>
  startedAt: Date
  statusCode: number
  latencyMs: number
  responseBody: string | null
}

/**
 * Many successful attempts, one statement per organization in the batch: the common case costs
 * one round trip per batch and organization.
 */
export async function recordSuccesses(db: Executor, batch: Success[], now: Date): Promise<void> {
  for (const [orgId, successes] of byOrganization(batch)) {
    await sql`
      WITH ${successBatch(successes)}, ${successWrites(orgId, now)}
      SELECT 1
    `.execute(db)
  }
}

function byOrganization(batch: Success[]): Map<string, Success[]> {
  const groups = new Map<string, Success[]>()
  for (const s of batch) {
    const group = groups.get(s.delivery.org_id)
    if (group) group.push(s)
    else groups.set(s.delivery.org_id, [s])
  }
  return groups
}

/**
 * A dispatcher's turn: writes a batch of successful attempts and claims up to `limit` due
 * deliveries (as claimDueDeliveries), a look at the queue and then one round trip per organization
 * (one in the common case). A delivery whose success is in the batch is never claimed by the same
 * statement, even when its lease has run out.
 */
export async function recordSuccessesAndClaim(db: Executor, batch: Success[], now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
  if (batch.length === 0) return claimDueDeliveries(db, now, leaseUntil, limit)
  if (limit <= 0) {
    await recordSuccesses(db, batch, now)
    return []
  }
  // One statement per organization: its successes and its claim together.
  const successes = byOrganization(batch)
  const due = await organizationsWithDueDeliveries(db, now)
  const claimed: ClaimedDelivery[] = []
  for (const orgId of new Set([...successes.keys(), ...due])) {
    const left = limit - claimed.length
    const ofOrg = successes.get(orgId)
    if (!ofOrg) {
      if (left > 0) claimed.push(...(await claimDueDeliveriesOf(db, orgId, now, leaseUntil, left)))
      continue
    }
    if (left <= 0) {
      await recordSuccesses(db, ofOrg, now)
      continue
    }
    const r = await sql<ClaimedDelivery>`
      WITH ${successBatch(ofOrg)},
      ${claimCtes(orgId, now, leaseUntil, left, sql`AND NOT EXISTS (SELECT 1 FROM v WHERE v.org_id = d.org_id AND v.id = d.id)`)},
      ${successWrites(orgId, now)}
      ${CLAIMED}
    `.execute(db)
    claimed.push(...r.rows)
  }
  return claimed
}

// The batch as CTE `v` (of one organization). It travels as one array per column, so the statement text is the same
// whatever the batch size: parsed and planned once per connection, not once per size. Ids, numbers
// and timestamps go as array literals built here (none of their characters needs quoting); response
// bodies, which may hold anything, as a JavaScript array that the driver quotes.
const successBatch = (batch: Success[]) => {
  const n = batch.length
  const orgIds = new Array<string>(n)
  const ids = new Array<string>(n)
  const attempts = new Array<number>(n)
  const startedAt = new Array<string>(n)
  const statusCodes = new Array<number>(n)
  const latencies = new Array<number>(n)
  const bodies = new Array<string | null>(n)
  for (let i = 0; i < n; i++) {
    const s = batch[i]
    orgIds[i] = s.delivery.org_id
    ids[i] = s.delivery.id
    attempts[i] = s.delivery.attempt_count
    startedAt[i] = s.startedAt.toISOString()
    statusCodes[i] = s.statusCode
    latencies[i] = Math.round(s.latencyMs)
    bodies[i] = s.responseBody
  }
  const literal = (values: Array<string | number>) => `{${values.join(',')}}`
  return sql`
    v AS MATERIALIZED (
      SELECT * FROM unnest(${literal(orgIds)}::uuid[], ${literal(ids)}::uuid[], ${literal(attempts)}::int[], ${literal(startedAt)}::timestamptz[],
                           ${literal(statusCodes)}::int[], ${literal(latencies)}::int[], ${bodies}::text[])
        AS v (org_id, id, attempt, started_at, status_code, latency_ms, response_body)
    )`
}

// CTEs writing the batch `v` (of one organization): the deliveries' new state (`succeeded`), then the attempt rows of
// those it updated. A delivery whose webhook was deleted mid-flight is no longer there to update;
// its attempt row is left out, instead of failing the foreign key and with it the whole batch
// (whose other deliveries were then sent again when their leases ran out).
const successWrites = (orgId: string, now: Date) => sql`
  succeeded AS (
    UPDATE webhook_deliveries d
    SET status = 'succeeded', next_attempt_at = ${now}, last_status_code = v.status_code, last_error = NULL, updated_at = ${now}
    FROM v WHERE d.org_id = ${orgId} AND d.org_id = v.org_id AND d.id = v.id
    RETURNING d.org_id, d.id
  ), attempts AS (
    INSERT INTO webhook_attempts (org_id, delivery_id, attempt, started_at, status_code, latency_ms, error, response_body)
    SELECT v.org_id, v.id, v.attempt, v.started_at, v.status_code, v.latency_ms, NULL, v.response_body
    FROM v JOIN succeeded s ON s.org_id = v.org_id AND s.id = v.id
    ON CONFLICT DO NOTHING
  )`

/** Success ends an endpoint's run of failures; the first failure starts one. */
export async function markEndpointHealthy(db: Executor, orgId: string, webhookId: string): Promise<void> {
  await sql`UPDATE webhooks SET failing_since = NULL WHERE org_id = ${orgId} AND id = ${webhookId} AND failing_since IS NOT NULL`.execute(db)
}

export async function markEndpointFailing(db: Executor, orgId: string, webhookId: string, now: Date): Promise<void> {
  await sql`UPDATE webhooks SET failing_since = ${now} WHERE org_id = ${orgId} AND id = ${webhookId} AND failing_since IS NULL`.execute(db)
}

export interface DeliveryView {
  id: string
  event_id: string
  event_type: string
  status: 'pending' | 'succeeded' | 'failed' | 'filtered'
  replay_id: string | null
  attempt_count: number
  next_attempt_at: string | null
  last_status_code: number | null
  last_error: string | null
  created_at: string
  updated_at: string
  payload: unknown
  attempts: Array<{ attempt: number; started_at: string; status_code: number | null; latency_ms: number; error: string | null; response_body: string | null }>
}

const TS = (col: string) => sql.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)

/** Newest first; the attempts of each delivery oldest first. */
export async function listDeliveries(
  db: Executor,
  orgId: string,
  webhookId: string,
  opts: { limit: number; cursor?: string; status?: string; deliveryId?: string },
): Promise<DeliveryView[]> {
  const conditions = [sql`d.org_id = ${orgId}`, sql`d.webhook_id = ${webhookId}`]
  if (opts.cursor) conditions.push(sql`d.id < ${opts.cursor}`)
  if (opts.status) conditions.push(sql`d.status = ${opts.status}`)
  if (opts.deliveryId) conditions.push(sql`d.id = ${opts.deliveryId}`)
  const r = await sql<DeliveryView>`
    SELECT d.id, d.event_id, d.event_type, d.status, d.replay_id, d.attempt_count,
           CASE WHEN d.status = 'pending' THEN ${TS('d.next_attempt_at')} END AS next_attempt_at,
           d.last_status_code, d.last_error, ${TS('d.created_at')} AS created_at, ${TS('d.updated_at')} AS updated_at,
           d.body::json AS payload,
           coalesce((
             SELECT json_agg(json_build_object('attempt', a.attempt, 'started_at', ${TS('a.started_at')}, 'status_code', a.status_code,
                                               'latency_ms', a.latency_ms, 'error', a.error, 'response_body', a.response_body) ORDER BY a.attempt)
             FROM webhook_attempts a WHERE a.org_id = d.org_id AND a.delivery_id = d.id
           ), '[]'::json) AS attempts
    FROM webhook_deliveries d
    WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY d.id DESC
    LIMIT ${opts.limit}
  `.execute(db)
  return r.rows
}

/** Queues a finished delivery again, now. False when it is not this webhook's or still pending. */
export async function requeueDelivery(db: Executor, orgId: string, webhookId: string, deliveryId: string, now: Date): Promise<'requeued' | 'pending' | 'missing'> {
  const r = await sql<{ status: string }>`
    WITH target AS (
      SELECT status FROM webhook_deliveries WHERE org_id = ${orgId} AND webhook_id = ${webhookId} AND id = ${deliveryId} FOR UPDATE
    ), updated AS (
      UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ${now}, updated_at = ${now}
      WHERE org_id = ${orgId} AND webhook_id = ${webhookId} AND id = ${deliveryId} AND status <> 'pending'
      RETURNING 1
    )
    SELECT status FROM target
  `.execute(db)
  if (r.rows.length === 0) return 'missing'
  return r.rows[0].status === 'pending' ? 'pending' : 'requeued'
}

/** A single delivery to one endpoint (the test event), woken like outbox rows. */
export async function insertDirectDelivery(db: Executor, orgId: string, webhookId: string, eventId: string, type: string, body: string, at: Date): Promise<string> {
  const r = await sql<{ id: string }>`
    INSERT INTO webhook_deliveries (org_id, id, webhook_id, event_id, event_type, body, status, next_attempt_at, created_at, updated_at)
    VALUES (${orgId}, cairn_uuidv7(${at}), ${webhookId}, ${eventId}, ${type}, ${body}, 'pending', ${at}, ${at}, ${at})
    RETURNING id
  `.execute(db)
  return r.rows[0].id
}

/** Deliveries that ended more than `before` ago go, with their attempts (housekeeping). */
export async function pruneDeliveries(db: Executor, before: Date): Promise<void> {
  await sql`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < ${before}`.execute(db)
}
