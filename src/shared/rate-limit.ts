/**
 * Fixed-window rate limits kept in the database, so every service process counts the same hits.
 * One statement per check: insert-or-increment the window's counter and read it back.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'

export interface RateLimitResult {
  allowed: boolean
  retryAfterSeconds: number
}

export async function hitRateLimit(db: Kysely<DB>, key: string, limit: number, windowSeconds: number, now: Date): Promise<RateLimitResult> {
  const windowStartMs = Math.floor(now.getTime() / (windowSeconds * 1000)) * windowSeconds * 1000
  const windowStart = new Date(windowStartMs).toISOString()
  const res = await sql<{ count: number }>`
    INSERT INTO rate_limit_counters AS c (key, window_start, count) VALUES (${key}, CAST(${windowStart} AS timestamptz), 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = c.count + 1
    RETURNING count`.execute(db)
  const count = Number(res.rows[0].count)
  return { allowed: count <= limit, retryAfterSeconds: Math.max(1, Math.ceil((windowStartMs + windowSeconds * 1000 - now.getTime()) / 1000)) }
}

/** Reads a counter without adding to it. */
export async function peekRateLimit(db: Kysely<DB>, key: string, limit: number, windowSeconds: number, now: Date): Promise<RateLimitResult> {
  const windowStartMs = Math.floor(now.getTime() / (windowSeconds * 1000)) * windowSeconds * 1000
  const row = await db
    .selectFrom('rate_limit_counters')
    .select('count')
    .where('key', '=', key)
    .where('window_start', '=', new Date(windowStartMs).toISOString())
    .executeTakeFirst()
  const count = Number(row?.count ?? 0)
  return { allowed: count < limit, retryAfterSeconds: Math.max(1, Math.ceil((windowStartMs + windowSeconds * 1000 - now.getTime()) / 1000)) }
}

export async function pruneRateLimits(db: Kysely<DB>, olderThan: Date): Promise<void> {
  await db.deleteFrom('rate_limit_counters').where('window_start', '<', olderThan.toISOString()).execute()
}
