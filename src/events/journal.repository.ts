/** Reads and pruning of the `events` table (migration 0012). */
import { CompiledQuery } from 'kysely'
import type { Executor } from '../records/index.ts'

/** How long the journal keeps an event (docs/webhooks.md, The event journal). */
export const EVENT_RETENTION_DAYS = 30

export interface JournalRow {
  id: string
  body: string
}

/**
 * One record's events, newest first, after `cursor` (an event id; UUIDv7, so id order is time
 * order) when given: the index (org_id, record_id, id) answers it without a sort.
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

/** Housekeeping: events older than the retention period. */
export async function pruneEvents(executor: Executor, now: Date): Promise<void> {
  const before = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86400 * 1000).toISOString()
  await executor.executeQuery(CompiledQuery.raw('DELETE FROM events WHERE occurred_at < CAST($1 AS timestamptz)', [before]))
}
