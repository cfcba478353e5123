/**
 * Throttles repeated sign-in failures per account and per address, in the database so that every
 * service process sees the same counts. Ten failures within fifteen minutes lock that key out until
 * the oldest of them ages out.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'

export const MAX_FAILURES = 10
export const WINDOW_SECONDS = 15 * 60

function keys(email: string, ip: string): string[] {
  return [`email:${email.trim().toLowerCase()}`, `ip:${ip}`]
}

/** Seconds to wait before another attempt, or 0 when allowed. */
export async function signInRetryAfter(db: Kysely<DB>, email: string, ip: string): Promise<number> {
  const rows = await sql<{ key: string; n: number; oldest: Date }>`
    SELECT key, CAST(count(*) AS integer) AS n, min(failed_at) AS oldest FROM sign_in_failures
    WHERE key IN (${sql.join(keys(email, ip))}) AND failed_at > now() - make_interval(secs => ${WINDOW_SECONDS})
    GROUP BY key`.execute(db)
  let wait = 0
  for (const r of rows.rows) {
    if (Number(r.n) >= MAX_FAILURES) wait = Math.max(wait, Math.ceil((new Date(r.oldest).getTime() + WINDOW_SECONDS * 1000 - Date.now()) / 1000))
  }
  return Math.max(0, wait)
}

export async function recordSignInFailure(db: Kysely<DB>, email: string, ip: string): Promise<void> {
  await db.insertInto('sign_in_failures').values(keys(email, ip).map((key) => ({ key }))).execute()
  // Keep the table small: drop what no longer counts.
  await sql`DELETE FROM sign_in_failures WHERE failed_at < now() - make_interval(secs => ${WINDOW_SECONDS * 2})`.execute(db)
}

export async function clearSignInFailures(db: Kysely<DB>, email: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('key', '=', keys(email, '')[0]).execute()
}
