/**
 * The shared side of the API rate limits: the rows of api_rate_leases (migration 0010), from which
 * service processes take quota in leases. One statement per lease, never one per request.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'

export interface Lease {
  /** Units this lease gives the calling process (0: the window's quota is all taken). */
  granted: number
  /** Units taken from the window's quota by all processes, this lease included. */
  leased: number
}

/**
 * Takes up to `batch` units of a window's quota, and never more than half of what is left (at least
 * one), so the last units go in ever smaller leases and few sit unused in a process the caller no
 * longer reaches. The row is locked for the statement, so leases by several processes add up
 * exactly and their sum never passes `limit`. In the UPDATE, both SET expressions read the old row.
 */
export async function takeLease(db: Kysely<DB>, budget: string, windowStart: Date, limit: number, batch: number): Promise<Lease> {
  const start = windowStart.toISOString()
  const res = await sql<{ leased: number; last_lease: number }>`
    INSERT INTO api_rate_leases AS l (budget, window_start, leased, last_lease)
    VALUES (${budget}, CAST(${start} AS timestamptz), LEAST(CAST(${batch} AS integer), (CAST(${limit} AS integer) + 1) / 2),
            LEAST(CAST(${batch} AS integer), (CAST(${limit} AS integer) + 1) / 2))
    ON CONFLICT (budget, window_start) DO UPDATE
      SET leased = l.leased + LEAST(CAST(${batch} AS integer), (CAST(${limit} AS integer) - l.leased + 1) / 2),
          last_lease = LEAST(CAST(${batch} AS integer), (CAST(${limit} AS integer) - l.leased + 1) / 2)
      WHERE l.leased < CAST(${limit} AS integer)
    RETURNING leased, last_lease`.execute(db)
  const row = res.rows[0]
  // No row: the WHERE refused, every unit of the window is leased already.
  return row ? { granted: Number(row.last_lease), leased: Number(row.leased) } : { granted: 0, leased: limit }
}

export async function pruneLeases(db: Kysely<DB>, olderThan: Date): Promise<void> {
  await db.deleteFrom('api_rate_leases').where('window_start', '<', olderThan.toISOString()).execute()
}
