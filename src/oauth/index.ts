/**
 * The OAuth 2.0 authorization server: owns clients, codes, grants and tokens, the authorize, token,
 * registration, revocation and introspection endpoints, the discovery documents, Settings -> API,
 * and the bearer check the resource server (REST API, /mcp) uses. This file is its only door.
 */
import { pruneExpiredOAuthRows } from './token.repository.ts'
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../shared/clock.ts'
import { BodyRefused } from '../http/body-parsers.ts'
import { authorizeRoutes } from './authorize/authorize.routes.ts'
import { tokenRoutes } from './token/token.routes.ts'
import { registrationRoutes } from './registration.routes.ts'
import { revocationRoutes } from './revocation.routes.ts'
import { discoveryRoutes } from './discovery.routes.ts'

export { settingsRoutes } from './settings.routes.ts'
export { makeBearerCheck, makeBearerVerifier, bearerChallenge } from './bearer.ts'
export { resourcesOf } from './resource.ts'
export { clientUseRecorder, type ClientUses } from './client-use.ts'
export { createOrgClient } from './client.service.ts'
export { clientNames } from './client.repository.ts'
export { SUPPORTED_SCOPES } from './oauth.defaults.ts'

/** Public endpoints of the authorization server (outside /api/v1, no bearer hook). */
export async function oauthServer(app: FastifyInstance, opts: { clock: Clock }): Promise<void> {
  // Codes and tokens a day past their expiry (housekeeping's hourly run).
  app.housekeeping.add('oauth codes and tokens', (now) => pruneExpiredOAuthRows(app.db, now))
  const { oauthDynamicRegistration } = app.config
  await app.register(authorizeRoutes, { clock: opts.clock })
  await app.register(discoveryRoutes)
  await app.register(
    async (api) => {
      // Body parsing failures (a non-form or unknown media type, malformed or oversize body) answer
      // RFC 6749 error JSON here too, never problem details (checklist C.24; docs/decisions.md, Errors).
      api.setErrorHandler((err: { statusCode?: number; message: string }, _request, reply) => {
        if (!err.statusCode || err.statusCode >= 500) throw err
        const status = err.statusCode === 413 ? 413 : 400
        // A body refused for what it holds (not UTF-8, nested too deep) says so; other failures are generic.
        const description = status === 413 ? 'The request body is too large.' : err instanceof BodyRefused ? err.message : 'The request body could not be read: unsupported media type or malformed body.'
        return reply.status(status).headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).type('application/json').send(JSON.stringify({ error: 'invalid_request', error_description: description }))
      })
      await api.register(tokenRoutes, { clock: opts.clock })
      await api.register(revocationRoutes, { clock: opts.clock })
      if (oauthDynamicRegistration) await api.register(registrationRoutes, { clock: opts.clock })
    },
    { prefix: '/api/oauth' },
  )
}
