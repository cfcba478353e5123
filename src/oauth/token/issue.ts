/**
 * Issuing tokens for a grant: a prefixed opaque access token (one hour) and a rotating refresh token,
 * stored as SHA-256 hashes. The response follows RFC 6749 §5.1.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { randomSecret, sha256 } from '../../shared/ids.ts'
import { ACCESS_TOKEN_PREFIX, ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_PREFIX, REFRESH_TOKEN_TTL_SECONDS, SECRET_BYTES } from '../oauth.defaults.ts'
import { insertToken } from '../token.repository.ts'

export interface TokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  scope: string
  refresh_token: string
}

export async function issueTokens(
  trx: Kysely<DB>,
  grant: { orgId: string; grantId: string; clientId: string; userId: string; resource: string; scopes: string[] },
  now: Date,
): Promise<TokenResponse> {
  const access = `${ACCESS_TOKEN_PREFIX}${randomSecret(SECRET_BYTES)}`
  const refresh = `${REFRESH_TOKEN_PREFIX}${randomSecret(SECRET_BYTES)}`
  const base = { org_id: grant.orgId, grant_id: grant.grantId, client_id: grant.clientId, user_id: grant.userId, resource: grant.resource, scopes: grant.scopes, created_at: now.toISOString() }
  await insertToken(trx, { ...base, token_hash: sha256(access), kind: 'access', expires_at: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000).toISOString() })
  await insertToken(trx, { ...base, token_hash: sha256(refresh), kind: 'refresh', expires_at: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString() })
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, scope: grant.scopes.join(' '), refresh_token: refresh }
}
