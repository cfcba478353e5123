/**
 * The refresh_token grant (RFC 6749 §6) with rotation: each refresh token works once and is
 * replaced; presenting a used one again revokes the whole grant (RFC 9700 §4.14.2).
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../../db/database.ts'
import { sha256 } from '../../../shared/ids.ts'
import { findClientAccess, touchClientAccess } from '../../client.repository.ts'
import { InvalidGrant, InvalidRequest, InvalidScope, InvalidTarget } from '../../oauth.errors.ts'
import { normalizeResource, type Resources } from '../../resource.ts'
import { parseScope } from '../../scopes.ts'
import { findActiveToken, lockToken, markTokenUsed, revokeGrant } from '../../token.repository.ts'
import type { AuthenticatedClient } from '../client-auth.ts'
import { issueTokens, type TokenResponse } from '../issue.ts'

export async function refreshTokenGrant(db: Kysely<DB>, client: AuthenticatedClient, body: Record<string, string>, resources: Resources, now: Date): Promise<TokenResponse> {
  if (!body.refresh_token) throw new InvalidRequest('refresh_token is required.')
  // Reuse must revoke the grant and still fail: commit the revocation, then throw.
  let orgId = ''
  const outcome = await db.transaction().execute(async (trx): Promise<TokenResponse | { reused: true }> => {
    const hash = sha256(body.refresh_token)
    const row = await lockToken(trx, hash)
    if (!row || row.kind !== 'refresh' || row.client_id !== client.client_id) throw new InvalidGrant('The refresh token is invalid.')
    if (row.used_at) {
      await revokeGrant(trx, row.org_id, row.grant_id, now)
      return { reused: true }
    }
    const access = await findClientAccess(trx, row.org_id, client.client_id, true)
    if (!access || access.revoked_at) throw new InvalidGrant('This client has been revoked for the organization.')
    const active = await findActiveToken(trx, hash, now)
    if (!active) throw new InvalidGrant('The refresh token is expired or revoked.')
    let scopes = active.scopes
    const requested = parseScope(body.scope)
    if (requested && requested.length) {
      const extra = requested.filter((s) => !active.scopes.includes(s))
      if (extra.length) throw new InvalidScope(`scope ${extra.join(', ')} was not granted.`)
      scopes = requested
    }
    if (body.resource !== undefined && normalizeResource(body.resource, resources) !== active.resource) {
      throw new InvalidTarget('resource differs from the one the grant was issued for.')
    }
    await markTokenUsed(trx, hash, now)
    orgId = row.org_id
    return issueTokens(trx, { orgId: row.org_id, grantId: row.grant_id, clientId: client.client_id, userId: active.user_id, resource: active.resource, scopes }, now)
  })
  if ('reused' in outcome) throw new InvalidGrant('The refresh token was already used; the grant is revoked.')
  await touchClientAccess(db, orgId, client.client_id, now)
  return outcome
}
