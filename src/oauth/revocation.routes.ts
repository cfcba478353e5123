/**
 * Token revocation (RFC 7009) at POST /api/oauth/revoke and introspection (RFC 7662) at
 * POST /api/oauth/introspect. Both authenticate the client; a client may revoke or inspect only
 * tokens issued to itself. Revoking a refresh token revokes its whole grant (RFC 7009 §2.1).
 */
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../shared/clock.ts'
import { sha256 } from '../shared/ids.ts'
import { InvalidClient, InvalidRequest, OAuthError } from './oauth.errors.ts'
import { findActiveToken, lockToken, revokeGrant, revokeToken } from './token.repository.ts'
import { authenticateClient } from './token/client-auth.ts'
import { readForm, sendOAuthError } from './token/token.routes.ts'

export async function revocationRoutes(app: FastifyInstance, opts: { clock: Clock }): Promise<void> {
  app.post('/revoke', { schema: { hide: true } }, async (request, reply) => {
    const now = opts.clock.now()
    try {
      const body = readForm(request)
      const client = await authenticateClient(app.db, request, body, now)
      if (!body.token) throw new InvalidRequest('token is required.')
      const hash = sha256(body.token)
      await app.db.transaction().execute(async (trx) => {
        const row = await lockToken(trx, hash)
        // RFC 7009 §2.2: an unknown or foreign token is answered 200 all the same.
        if (row && row.client_id === client.client_id) {
          if (row.kind === 'refresh') await revokeGrant(trx, row.org_id, row.grant_id, now)
          else await revokeToken(trx, hash, now)
        }
      })
      return reply.headers({ 'cache-control': 'no-store' }).status(200).send()
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(reply, err)
      throw err
    }
  })

  app.post('/introspect', { schema: { hide: true } }, async (request, reply) => {
    const now = opts.clock.now()
    try {
      const body = readForm(request)
      const client = await authenticateClient(app.db, request, body, now)
      if (!client.confidential) throw new InvalidClient('Introspection is for confidential clients.', /^basic /i.test(request.headers.authorization ?? ''))
      if (!body.token) throw new InvalidRequest('token is required.')
      const row = await findActiveToken(app.db, sha256(body.token), now)
      if (!row || row.client_id !== client.client_id) return reply.headers({ 'cache-control': 'no-store' }).send({ active: false })
      return reply.headers({ 'cache-control': 'no-store' }).send({
        active: true,
        scope: row.scopes.join(' '),
        client_id: row.client_id,
        token_type: row.kind === 'access' ? 'Bearer' : 'refresh_token',
        exp: Math.floor(new Date(row.expires_at).getTime() / 1000),
        iat: Math.floor(new Date(row.created_at).getTime() / 1000),
        sub: row.user_id,
        aud: row.resource,
        iss: app.config.publicUrl,
        organization_id: row.org_id,
      })
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(reply, err)
      throw err
    }
  })
}
