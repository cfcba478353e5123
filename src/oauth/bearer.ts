/**
 * The resource server's bearer check (RFC 6750): the token, read with its grant, client and
 * membership in one query, must be an unexpired access token bound to this resource (RFC 8707).
 * Failures answer 401 `invalid_token` with the challenge of docs/decisions.md.
 *
 * The rules that judge the token row (`accept`) are apart from the lookup, so that a statement
 * that reads the row itself (records/list-with-bearer.ts, the bearer list in one round trip)
 * answers exactly what the two-step check answers; accepting a token is also where its client's
 * use is recorded (client-use.ts), so both paths record it.
 */
import type { BearerCheck, PresentedBearer } from '../http/auth.ts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { AuthContext, Scope } from '../shared/auth-context.ts'
import type { Clock } from '../shared/clock.ts'
import { Unauthenticated } from '../shared/errors.ts'
import { sha256 } from '../shared/ids.ts'
import { ACCESS_TOKEN_PREFIX } from './oauth.defaults.ts'
import { resourcesServing, type Resources } from './resource.ts'
import { FIND_BEARER_SQL, findBearerToken, type BearerTokenRow } from './token.repository.ts'
import type { ClientUses } from './client-use.ts'

export function bearerChallenge(resourceMetadataUrl: string, error?: { code: string; description: string }): string {
  const parts = [`Bearer resource_metadata="${resourceMetadataUrl}"`]
  if (error) parts.push(`error="${error.code}"`, `error_description="${error.description}"`)
  return parts.join(', ')
}

/** `uses` hears of every token accepted, on both paths, for Settings -> API's "Last used" (client-use.ts). */
export function makeBearerCheck(db: Kysely<DB>, clock: Clock, resources: Resources, target: 'api' | 'mcp', resourceMetadataUrl: string, uses: ClientUses): BearerCheck {
  const invalid = (description: string) =>
    new Unauthenticated(`The access token is ${description}.`, { 'www-authenticate': bearerChallenge(resourceMetadataUrl, { code: 'invalid_token', description: `The access token is ${description}` }) }, 'invalid_token')
  const servedBy = resourcesServing(target, resources)
  function accept(row: BearerTokenRow | null, now: Date): AuthContext {
    if (!row || row.kind !== 'access') throw invalid('unknown, expired or revoked')
    if (!servedBy.includes(row.resource)) throw invalid(`issued for another resource (${row.resource})`)
    uses.seen(row.org_id, row.client_id, now)
    return { orgId: row.org_id, userId: row.user_id, role: row.role, scopes: new Set(row.scopes as Scope[]), via: 'bearer', clientId: row.client_id }
  }
  function present(token: string): PresentedBearer {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX)) throw invalid('not one this server issued')
    const now = clock.now()
    return { tokenHash: sha256(token), now, servedBy, lookupSql: FIND_BEARER_SQL, accept: (row) => accept(row as BearerTokenRow | null, now) }
  }
  return {
    present,
    async verify(_request, token) {
      const presented = present(token)
      return presented.accept(await findBearerToken(db, presented.tokenHash, presented.now))
    },
  }
}

export function makeBearerVerifier(db: Kysely<DB>, clock: Clock, resources: Resources, target: 'api' | 'mcp', resourceMetadataUrl: string, uses: ClientUses) {
  return makeBearerCheck(db, clock, resources, target, resourceMetadataUrl, uses).verify
}
