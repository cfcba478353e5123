/**
 * SQL of webhook replays (migration 0018): creating one, showing the latest with its progress, and
 * the background step that claims a running replay (FOR UPDATE SKIP LOCKED) and queues the
 * deliveries of its next chunk of the journal in the same transaction that moves its position.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { jsonTextColumn } from '../../db/json-array.ts'
import type { WebhookFilter } from '../filter/filter-grammar.ts'

type Executor = Kysely<DB>

export interface ReplayView {
  id: string
  status: 'running' | 'completed' | 'canceled'
  status_reason: string | null
  since_seq: number | null
  since_time: string | null
  from_seq: number
  through_seq: number
  position: number
  total: number
  examined: number
  queued: number
  deliveries: { pending: number; succeeded: number; failed: number; filtered: number }
  created_at: string
  finished_at: string | null
}

const TS = (col: string) => sql.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)

/** The replay as JSON (for the webhook's view), `r` being a webhook_replays row. */
export const REPLAY_JSON = sql`json_build_object(
  'id', r.id, 'status', r.status, 'status_reason', r.status_reason,
  'since_seq', r.since_seq, 'since_time', ${TS('r.since_time')},
  'from_seq', r.from_seq, 'through_seq', r.through_seq, 'position', r.position,
  'total', greatest(r.through_seq - r.from_seq + 1, 0), 'examined', r.examined, 'queued', r.queued,
  'deliveries', (
    SELECT json_build_object('pending', count(*) FILTER (WHERE x.status = 'pending'), 'succeeded', count(*) FILTER (WHERE x.status = 'succeeded'),
                             'failed', count(*) FILTER (WHERE x.status = 'failed'), 'filtered', count(*) FILTER (WHERE x.status = 'filtered'))
    FROM webhook_deliveries x WHERE x.org_id = r.org_id AND x.replay_id = r.id),
  'created_at', ${TS('r.created_at')}, 'finished_at', ${TS('r.finished_at')})`

export async function findReplay(db: Executor, orgId: string, id: string): Promise<ReplayView | null> {
  const r = await sql<{ replay: ReplayView }>`SELECT ${REPLAY_JSON} AS replay FROM webhook_replays r WHERE r.org_id = ${orgId} AND r.id = ${id}`.execute(db)
  return r.rows[0]?.replay ?? null
}

export interface NewReplay {
  id: string
  webhookId: string
  sinceSeq: number | null
  sinceTime: Date | null
  fromSeq: number
  throughSeq: number
  createdBy: string | null
  at: Date
}

/**
 * False when the endpoint already has a running replay (the partial unique index). An empty range
 * is stored completed at once.
 */
export async function insertReplay(db: Executor, orgId: string, row: NewReplay): Promise<boolean> {
  const empty = row.fromSeq > row.throughSeq
  const r = await sql`
    INSERT INTO webhook_replays (org_id, id, webhook_id, since_seq, since_time, from_seq, through_seq, position, status, created_by, created_at, updated_at, finished_at)
    VALUES (${orgId}, ${row.id}, ${row.webhookId}, ${row.sinceSeq}, ${row.sinceTime}, ${row.fromSeq}, ${row.throughSeq}, ${row.fromSeq - 1},
            ${empty ? 'completed' : 'running'}, ${row.createdBy}, ${row.at}, ${row.at}, ${empty ? row.at : null})
    ON CONFLICT DO NOTHING
    RETURNING id
  `.execute(db)
  return r.rows.length > 0
}

/** The endpoint's running replay stops: it was disabled, or the journal lost the replay's next events. */
export async function cancelRunningReplay(trx: Executor, orgId: string, webhookId: string, reason: string, at: Date): Promise<void> {
  await sql`
    UPDATE webhook_replays SET status = 'canceled', status_reason = ${reason}, updated_at = ${at}, finished_at = ${at}
    WHERE org_id = ${orgId} AND webhook_id = ${webhookId} AND status = 'running'
  `.execute(trx)
}

/** A running replay, locked for this transaction, with what its step needs of its endpoint. */
export interface ClaimedReplay {
  org_id: string
  id: string
  webhook_id: string
  since_time: Date | null
  from_seq: string
  through_seq: string
  position: string
  events: string[]
  filter: WebhookFilter | null
  include_amounts: boolean
  ordering: 'none' | 'per_record'
  webhook_status: 'active' | 'disabled'
}

/** How many organizations one look considers; the rest wait for the next look. */
const DISCOVERY_LIMIT = 100

/**
 * The running replay that waited longest, skipping those another process holds and those with
 * `maxPending` deliveries still waiting to be sent (a replay feeds the queue as it drains, so live
 * deliveries never queue behind a whole journal). Claims within one organization at a time: the
 * organizations with a running replay come from a plain read without locks (on Citus, one
 * statement to every shard: docs/scale-out.md, Query rules, allow-list).
 */
export async function claimRunningReplay(trx: Executor, maxPending: number): Promise<ClaimedReplay | null> {
  const orgs = await sql<{ org_id: string }>`SELECT DISTINCT org_id FROM webhook_replays WHERE status = 'running' LIMIT ${DISCOVERY_LIMIT}`.execute(trx)
  for (const { org_id } of orgs.rows) {
    const replay = await claimRunningReplayOf(trx, org_id, maxPending)
    if (replay) return replay
  }
  return null
}

async function claimRunningReplayOf(trx: Executor, orgId: string, maxPending: number): Promise<ClaimedReplay | null> {
  const r = await sql<ClaimedReplay>`
    SELECT r.org_id, r.id, r.webhook_id, r.since_time, r.from_seq, r.through_seq, r.position,
           w.events, w.filter, w.include_amounts, w.ordering, w.status AS webhook_status
    FROM webhooks w JOIN webhook_replays r ON r.org_id = w.org_id AND r.webhook_id = w.id
    WHERE r.org_id = ${orgId} AND r.status = 'running'
      AND (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries x
                                 WHERE x.org_id = r.org_id AND x.replay_id = r.id AND x.status = 'pending' LIMIT ${maxPending}) p) < ${maxPending}
    ORDER BY r.updated_at
    LIMIT 1
    FOR UPDATE OF r SKIP LOCKED
  `.execute(trx)
  return r.rows[0] ?? null
}

export interface ReplayDelivery {
  eventId: string
  type: string
  recordId: string | null
  body: string
}

/** Queues a chunk's deliveries (normal delivery rows, marked with the replay) and moves the replay on. */
export async function queueReplayChunk(trx: Executor, replay: ClaimedReplay, deliveries: ReplayDelivery[], position: number, examined: number, at: Date): Promise<void> {
  if (deliveries.length > 0) {
      await sql`
      INSERT INTO webhook_deliveries (org_id, id, webhook_id, event_id, event_type, body, status, next_attempt_at, created_at, updated_at, replay_id, record_id)
      SELECT ${replay.org_id}, cairn_uuidv7(${at}), ${replay.webhook_id}, CAST(e.id AS uuid), e.type, e.body, 'pending', ${at}, ${at}, ${at}, ${replay.id}, CAST(e.record_id AS uuid)
      FROM ROWS FROM (${jsonTextColumn(deliveries.map((d) => d.eventId))}, ${jsonTextColumn(deliveries.map((d) => d.type))}, ${jsonTextColumn(deliveries.map((d) => d.body))},
                      ${jsonTextColumn(deliveries.map((d) => d.recordId))}) AS e(id, type, body, record_id)
    `.execute(trx)
  }
  const done = position >= Number(replay.through_seq)
  await sql`
    UPDATE webhook_replays
    SET position = ${position}, examined = ${examined}, queued = queued + ${deliveries.length}, updated_at = ${at},
        status = ${done ? 'completed' : 'running'}, finished_at = ${done ? at : null}
    WHERE org_id = ${replay.org_id} AND id = ${replay.id}
  `.execute(trx)
}
