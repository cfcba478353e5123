/** SQL for authorization codes, grants and tokens. Only hashes of codes and tokens are stored. */
import { CompiledQuery, type Insertable, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'

export function insertCode(db: Kysely<DB>, row: Insertable<DB['oauth_codes']>) {
  return db.insertInto('oauth_codes').values(row).execute()
}

/** The code row, locked, so two redemptions of one code are serialised (single use, atomic). */
export function lockCode(trx: Kysely<DB>, codeHash: Buffer) {
  return trx.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).forUpdate().executeTakeFirst()
}

export function markCodeConsumed(trx: Kysely<DB>, codeHash: Buffer, grantId: string, now: Date) {
  return trx.updateTable('oauth_codes').set({ consumed_at: now.toISOString(), grant_id: grantId }).where('code_hash', '=', codeHash).execute()
}

export function insertGrant(trx: Kysely<DB>, row: Insertable<DB['oauth_grants']>) {
  return trx.insertInto('oauth_grants').values(row).execute()
}

/** Revokes a grant and every token issued under it. */
export async function revokeGrant(db: Kysely<DB>, orgId: string, grantId: string, now: Date): Promise<void> {
  await db.updateTable('oauth_grants').set({ revoked_at: now.toISOString() }).where('org_id', '=', orgId).where('id', '=', grantId).where('revoked_at', 'is', null).execute()
  await db.updateTable('oauth_tokens').set({ revoked_at: now.toISOString() }).where('org_id', '=', orgId).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute()
}

export function insertToken(trx: Kysely<DB>, row: Insertable<DB['oauth_tokens']>) {
  return trx.insertInto('oauth_tokens').values(row).execute()
}

export function lockToken(trx: Kysely<DB>, tokenHash: Buffer) {
  return trx.selectFrom('oauth_tokens').selectAll().where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst()
}

export function markTokenUsed(trx: Kysely<DB>, tokenHash: Buffer, now: Date) {
  return trx.updateTable('oauth_tokens').set({ used_at: now.toISOString() }).where('token_hash', '=', tokenHash).execute()
}

export function revokeToken(db: Kysely<DB>, tokenHash: Buffer, now: Date) {
  return db.updateTable('oauth_tokens').set({ revoked_at: now.toISOString() }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute()
}

export interface ActiveTokenRow {
  kind: 'access' | 'refresh'
  org_id: string
  grant_id: string
  client_id: string
  user_id: string
  scopes: string[]
  resource: string
  role: 'admin' | 'member'
  expires_at: Date
  created_at: Date
}

/**
 * A token that is valid right now, with the person's role. Revocations of clients and grants mark
 * their tokens, and a person removed from the organization loses the membership row, so this one
 * primary-key lookup decides: a revocation takes effect on the very next request in every process,
 * with no cache to invalidate.
 */
export const FIND_ACTIVE_TOKEN_SQL = `SELECT t.kind, t.org_id, t.grant_id, t.client_id, t.user_id, t.scopes, t.resource, m.role, t.expires_at, t.created_at
  FROM oauth_tokens t JOIN memberships m ON m.org_id = t.org_id AND m.user_id = t.user_id
  WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.used_at IS NULL AND t.expires_at > CAST($2 AS timestamptz)`

/** The bearer check's lighter form: only what an AuthContext needs (no timestamps to parse). */
export const FIND_BEARER_SQL = `SELECT t.kind, t.org_id, t.client_id, t.user_id, t.scopes, t.resource, m.role
  FROM oauth_tokens t JOIN memberships m ON m.org_id = t.org_id AND m.user_id = t.user_id
  WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.used_at IS NULL AND t.expires_at > CAST($2 AS timestamptz)`

export type BearerTokenRow = Pick<ActiveTokenRow, 'kind' | 'org_id' | 'client_id' | 'user_id' | 'scopes' | 'resource' | 'role'>

export async function findBearerToken(db: Kysely<DB>, tokenHash: Buffer, now: Date): Promise<BearerTokenRow | null> {
  const res = await db.executeQuery<BearerTokenRow>(CompiledQuery.raw(FIND_BEARER_SQL, [tokenHash, now.toISOString()]))
  return res.rows[0] ?? null
}

export async function findActiveToken(db: Kysely<DB>, tokenHash: Buffer, now: Date): Promise<ActiveTokenRow | null> {
  // Runs on every bearer request: a precompiled statement, no query building.
  const res = await db.executeQuery<ActiveTokenRow>(CompiledQuery.raw(FIND_ACTIVE_TOKEN_SQL, [tokenHash, now.toISOString()]))
  return res.rows[0] ?? null
}

export async function pruneExpiredOAuthRows(db: Kysely<DB>, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - 24 * 3600 * 1000).toISOString()
  await db.deleteFrom('oauth_codes').where('expires_at', '<', cutoff).execute()
  await db.deleteFrom('oauth_tokens').where('expires_at', '<', cutoff).execute()
}
