/**
 * Access tokens for the benchmarks, written straight into the database with the token repository's
 * own inserts (a client, a grant, a token row): the list benchmarks measure the bearer check on
 * each request, not the authorization flow, which bench/oauth.ts measures.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../src/db/database.ts'
import { createOrgClient } from '../src/oauth/client.service.ts'
import { ACCESS_TOKEN_PREFIX } from '../src/oauth/oauth.defaults.ts'
import { insertGrant, insertToken } from '../src/oauth/token.repository.ts'
import { randomSecret, sha256, uuidv7 } from '../src/shared/ids.ts'

/** An access token for the REST API (resource = the service origin), valid for a day. */
export async function insertAccessToken(db: Kysely<DB>, orgId: string, userId: string, scopes: string[], resource: string): Promise<string> {
  const client = await createOrgClient(db, orgId, { name: `bench ${scopes.join(' ')}`, redirectUris: ['https://bench.example.test/cb'], scopes }, 'settings')
  const now = new Date()
  const grantId = uuidv7()
  await insertGrant(db, { org_id: orgId, id: grantId, client_id: client.client_id, user_id: userId, scopes, resource, created_at: now.toISOString() })
  const token = `${ACCESS_TOKEN_PREFIX}${randomSecret()}`
  await insertToken(db, {
    token_hash: sha256(token),
    kind: 'access',
    org_id: orgId,
    grant_id: grantId,
    client_id: client.client_id,
    user_id: userId,
    resource,
    scopes,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + 24 * 3600 * 1000).toISOString(),
  })
  return token
}
