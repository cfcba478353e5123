/** Reads and pruning of the `events` table (migration 0012). */
import { CompiledQuery } from 'kysely'
import type { Executor } from '../records/index.ts'

export interface JournalRow {
  id: string
  body: string
}

/**
 * One record's events, newest first, after `cursor` (an event id; UUIDv7, so id order is time
 * order) when given: the index (org_id, record_id, id) answers it without a sort. Unnumbered events
 * are included: a record's page shows its change at once.
 */
export async function recordEventsPage(executor: Executor, orgId: string, entity: string, recordId: string, cursor: string | undefined, limit: number): Promise<JournalRow[]> {
  const params: unknown[] = [orgId, recordId, `${entity}.%`, limit + 1]
  if (cursor) params.push(cursor)
  const r = await executor.executeQuery<JournalRow>(
    CompiledQuery.raw(
      `SELECT id, body FROM events
       WHERE org_id = $1 AND record_id = $2 AND type LIKE $3 ${cursor ? 'AND id < $5' : ''}
       ORDER BY id DESC LIMIT $4`,
      params,
    ),
  )
  return r.rows
}

export interface FeedRead {
  /** The newest numbered seq of the organization (0: none yet). */
  newest: number
  /** The last seq pruning removed (0: none); everything above it is still held. */
  pruned: number
  rows: { seq: number; body: string }[]
}

/** Forwards after a seq (null: from the oldest held), or newest first below one (null: from the newest). */
export type FeedPosition = { after: number | null } | { before: number | null }

/**
 * Numbered events after `after` in seq order (or below `before`, newest first), `types` only when given, at most `limit`; with the
 * organization's newest and pruned marks read in the same snapshot as the rows, so `newest` never
 * runs ahead of what the page could have shown.
 */
export async function feedPage(executor: Executor, orgId: string, position: FeedPosition, limit: number, types: readonly string[] | null): Promise<FeedRead> {
  const params: unknown[] = [orgId, limit]
  const typeCondition = types ? `AND e.type = ANY(CAST($${params.push(types)} AS text[]))` : ''
  const range =
    'before' in position
      ? `${position.before === null ? '' : `AND e.seq < CAST($${params.push(position.before)} AS bigint)`} ORDER BY e.seq DESC`
      : `AND e.seq > ${position.after === null ? 'coalesce(m.pruned, 0)' : `CAST($${params.push(position.after)} AS bigint)`} ORDER BY e.seq`
  const r = await executor.executeQuery<{ newest: string | null; pruned: string | null; seq: string | null; body: string | null }>(
    CompiledQuery.raw(
      `WITH m AS (
         SELECT max(value) FILTER (WHERE name = 'event_seq') AS newest, max(value) FILTER (WHERE name = 'events_pruned') AS pruned
         FROM org_counters WHERE org_id = $1 AND name IN ('event_seq', 'events_pruned')
       )
       SELECT m.newest, m.pruned, e.seq, e.body FROM m LEFT JOIN LATERAL (
         SELECT e.seq, e.body FROM events e WHERE e.org_id = $1 AND e.seq IS NOT NULL ${typeCondition} ${range} LIMIT $2
       ) e ON true`,
      params,
    ),
  )
  const first = r.rows[0]
  return {
    newest: Number(first?.newest ?? 0),
    pruned: Number(first?.pruned ?? 0),
    rows: r.rows.filter((row) => row.seq !== null).map((row) => ({ seq: Number(row.seq), body: row.body! })),
  }
}

/**
 * Housekeeping: per organization, every numbered event up to the newest one older than the
 * retention period (pruning by seq keeps what stays a gapless range), remembered as the
 * organization's `events_pruned` mark so an `after` below it answers 410. One read finds each
 * organization's cut (grouped by org_id: on Citus each shard answers for its own organizations,
 * docs/scale-out.md, Query rules, allow-list); each organization's delete and mark then commit
 * together in one statement on its own shard.
 */
export async function pruneEvents(executor: Executor, now: Date, retentionDays: number): Promise<void> {
  const before = new Date(now.getTime() - retentionDays * 86400 * 1000).toISOString()
  const cuts = await executor.executeQuery<{ org_id: string; upto: string }>(
    CompiledQuery.raw(`SELECT org_id, max(seq) AS upto FROM events WHERE occurred_at < CAST($1 AS timestamptz) AND seq IS NOT NULL GROUP BY org_id`, [before]),
  )
  for (const cut of cuts.rows) {
    await executor.executeQuery(
      CompiledQuery.raw(
        `WITH gone AS (
           DELETE FROM events WHERE org_id = $1 AND seq <= $2 RETURNING 1
         )
         INSERT INTO org_counters (org_id, name, value) VALUES ($1, 'events_pruned', $2)
         ON CONFLICT (org_id, name) DO UPDATE SET value = greatest(org_counters.value, excluded.value)`,
        [cut.org_id, cut.upto],
      ),
    )
  }
}

/**
 * The lowest seq among the organization's numbered events that occurred at or after `at` (null:
 * none): every such event is at or above it. Events above it may have occurred earlier (numbering
 * follows commits), so a reader from a time (webhook replays) still checks each event's time.
 */
export async function firstSeqSince(executor: Executor, orgId: string, at: Date): Promise<number | null> {
  const r = await executor.executeQuery<{ seq: string | null }>(
    CompiledQuery.raw(`SELECT min(seq) AS seq FROM events WHERE org_id = $1 AND occurred_at >= CAST($2 AS timestamptz) AND seq IS NOT NULL`, [orgId, at.toISOString()]),
  )
  return r.rows[0]?.seq == null ? null : Number(r.rows[0].seq)
}
