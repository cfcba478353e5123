/**
 * Browser sessions: a random id in an HttpOnly cookie, only its SHA-256 stored, expiring, deleted
 * on sign-out. Each session carries a CSRF token that state-changing API calls must echo in the
 * `x-csrf-token` header (the cookie alone is not enough).
 */
import { CompiledQuery, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { constantTimeEqual, randomSecret, sha256 } from '../shared/ids.ts'

export const SESSION_COOKIE = 'cairn_session'

export interface SessionInfo {
  userId: string
  orgId: string
  role: 'admin' | 'member'
  csrfToken: string
}

export async function createSession(db: Kysely<DB>, userId: string, orgId: string, ttlSeconds: number): Promise<string> {
  const token = randomSecret(32)
  await db
    .insertInto('sessions')
    .values({
      token_hash: sha256(token),
      user_id: userId,
      active_org_id: orgId,
      csrf_token: randomSecret(24),
      expires_at: new Date(Date.now() + ttlSeconds * 1000),
    })
    .execute()
  return token
}

/** One query: the session, still valid, with the caller's role in its active organization. */
export const FIND_SESSION_SQL = `SELECT s.user_id, s.active_org_id, s.csrf_token, m.role FROM sessions s
  JOIN memberships m ON m.org_id = s.active_org_id AND m.user_id = s.user_id
  WHERE s.token_hash = $1 AND s.expires_at > now()`

export async function findSession(db: Kysely<DB>, token: string): Promise<SessionInfo | null> {
  if (token.length < 20 || token.length > 100) return null
  // Runs on every request: a precompiled statement, no query building.
  const res = await db.executeQuery<{ user_id: string; active_org_id: string; csrf_token: string; role: 'admin' | 'member' }>(
    CompiledQuery.raw(FIND_SESSION_SQL, [sha256(token)]),
  )
  const row = res.rows[0]
  return row ? { userId: row.user_id, orgId: row.active_org_id, role: row.role, csrfToken: row.csrf_token } : null
}

/**
 * The person's role in `orgId` if the session is still valid and they are still a member there
 * (null otherwise): a stream opened in one organization stays open while its tab switches to another.
 */
export async function sessionRoleIn(db: Kysely<DB>, token: string, orgId: string): Promise<'admin' | 'member' | null> {
  const res = await db.executeQuery<{ role: 'admin' | 'member' }>(
    CompiledQuery.raw(
      `SELECT m.role FROM sessions s JOIN memberships m ON m.user_id = s.user_id AND m.org_id = $2
       WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [sha256(token), orgId],
    ),
  )
  return res.rows[0]?.role ?? null
}

export function csrfMatches(session: SessionInfo, presented: string | undefined): boolean {
  return typeof presented === 'string' && constantTimeEqual(session.csrfToken, presented)
}

export async function switchSessionOrganization(db: Kysely<DB>, token: string, orgId: string): Promise<boolean> {
  const res = await db
    .updateTable('sessions')
    .set({ active_org_id: orgId })
    .where('token_hash', '=', sha256(token))
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('memberships').select('org_id').where('org_id', '=', orgId).whereRef('user_id', '=', 'sessions.user_id')),
    )
    .executeTakeFirst()
  return Number(res.numUpdatedRows) === 1
}

export async function deleteSession(db: Kysely<DB>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', sha256(token)).execute()
}
