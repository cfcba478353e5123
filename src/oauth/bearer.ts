/**
 * The resource server's bearer check (RFC 6750): the token, read with its grant, client and
 * membership in one query, must be an unexpired access token bound to this resource (RFC 8707).
 * Failures answer 401 `invalid_token` with the challenge of docs/decisions.md.
 */
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { AuthContext, Scope } from '../shared/auth-context.ts'
import type { Clock } from '../shared/clock.ts'
import { Unauthenticated } from '../shared/errors.ts'
import { sha256 } from '../shared/ids.ts'
import { ACCESS_TOKEN_PREFIX } from './oauth.defaults.ts'
import { resourceServes, type Resources } from './resource.ts'
import { findBearerToken } from './token.repository.ts'

export function bearerChallenge(resourceMetadataUrl: string, error?: { code: string; description: string }): string {
  const parts = [`Bearer resource_metadata="${resourceMetadataUrl}"`]
  if (error) parts.push(`error="${error.code}"`, `error_description="${error.description}"`)
  return parts.join(', ')
}

export function makeBearerVerifier(db: Kysely<DB>, clock: Clock, resources: Resources, target: 'api' | 'mcp', resourceMetadataUrl: string) {
  const invalid = (description: string) =>
    new Unauthenticated(`The access token is ${description}.`, { 'www-authenticate': bearerChallenge(resourceMetadataUrl, { code: 'invalid_token', description: `The access token is ${description}` }) }, 'invalid_token')
  return async function verifyBearer(_request: FastifyRequest, token: string): Promise<AuthContext> {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX)) throw invalid('not one this server issued')
    const row = await findBearerToken(db, sha256(token), clock.now())
    if (!row || row.kind !== 'access') throw invalid('unknown, expired or revoked')
    if (!resourceServes(row.resource, target, resources)) throw invalid(`issued for another resource (${row.resource})`)
    return { orgId: row.org_id, userId: row.user_id, role: row.role, scopes: new Set(row.scopes as Scope[]), via: 'bearer', clientId: row.client_id }
  }
}
