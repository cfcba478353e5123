/**
 * The authorization_code grant (RFC 6749 §4.1.3, RFC 7636 §4.6, RFC 8707 §2.2). The code row is
 * locked for the whole exchange, so it is redeemed once; a second redemption by the rightful client
 * revokes everything the first one issued (OAuth 2.1 §4.1.3), but a replay with a wrong verifier or
 * client does not (that would hand attackers a way to revoke others' tokens, §7.5.2).
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../../db/database.ts'
import { sha256, uuidv7 } from '../../../shared/ids.ts'
import { findClientAccess, touchClientAccess } from '../../client.repository.ts'
import { InvalidClient, InvalidGrant, InvalidRequest, InvalidTarget } from '../../oauth.errors.ts'
import { normalizeResource, type Resources } from '../../resource.ts'
import { insertGrant, lockCode, markCodeConsumed, revokeGrant } from '../../token.repository.ts'
import type { AuthenticatedClient } from '../client-auth.ts'
import { issueTokens, type TokenResponse } from '../issue.ts'
import { checkCodeVerifier } from '../pkce.ts'

export async function authorizationCodeGrant(
  db: Kysely<DB>,
  client: AuthenticatedClient,
  body: Record<string, string>,
  resources: Resources,
  now: Date,
  usedBasic: boolean,
): Promise<TokenResponse> {
  if (!body.code) throw new InvalidRequest('code is required.')
  // A replay must revoke what the first redemption issued and still fail: the revocation is
  // committed by the transaction, and the error thrown after it.
  let orgId = ''
  const outcome = await db.transaction().execute(async (trx): Promise<TokenResponse | { replayed: true }> => {
    const code = await lockCode(trx, sha256(body.code))
    if (!code) throw new InvalidGrant('The code is unknown, expired or already used.')
    if (code.client_id !== client.client_id) throw new InvalidGrant('The code was issued to another client.')
    checkCodeVerifier(body.code_verifier, code.code_challenge)
    if (code.consumed_at) {
      if (code.grant_id) await revokeGrant(trx, code.org_id, code.grant_id, now)
      return { replayed: true }
    }
    if (new Date(code.expires_at).getTime() <= now.getTime()) throw new InvalidGrant('The code has expired.')
    // RFC 6749 §4.1.3: redirect_uri must be identical to the one sent at authorize (when one was).
    if (code.redirect_uri_sent || body.redirect_uri !== undefined) {
      if (body.redirect_uri !== code.redirect_uri) throw new InvalidGrant('redirect_uri does not match the authorization request.')
    }
    if (body.resource !== undefined && normalizeResource(body.resource, resources) !== code.resource) {
      throw new InvalidTarget('resource differs from the one in the authorization request.')
    }
    // FOR SHARE: a concurrent revocation of this client waits for us, then marks our tokens too.
    const access = await findClientAccess(trx, code.org_id, client.client_id, true)
    if (!access || access.revoked_at) throw new InvalidClient('This client has been revoked for the organization.', usedBasic)
    const grantId = uuidv7(now)
    await insertGrant(trx, {
      org_id: code.org_id,
      id: grantId,
      client_id: client.client_id,
      user_id: code.user_id,
      scopes: code.scopes,
      resource: code.resource,
      created_at: now.toISOString(),
    })
    await markCodeConsumed(trx, code.code_hash, grantId, now)
    orgId = code.org_id
    return issueTokens(trx, { orgId: code.org_id, grantId, clientId: client.client_id, userId: code.user_id, resource: code.resource, scopes: code.scopes }, now)
  })
  if ('replayed' in outcome) throw new InvalidGrant('The code was already used; the tokens issued from it are revoked.')
  await touchClientAccess(db, orgId, client.client_id, now)
  return outcome
}
