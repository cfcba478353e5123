/**
 * POST /api/oauth/token (RFC 6749 §3.2): form-encoded only, client authenticated, rate limited per
 * client and per address, then dispatched on grant_type. Answers carry `Cache-Control: no-store`
 * and `Pragma: no-cache` (RFC 6749 §5.1) and RFC 6749 error JSON, never problem details.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../../shared/clock.ts'
import { hitRateLimit } from '../../shared/rate-limit.ts'
import { InvalidRequest, OAuthError, SlowDown, UnsupportedGrantType } from '../oauth.errors.ts'
import { MAX_PARAM_LENGTH } from '../oauth.defaults.ts'
import { resourcesOf } from '../resource.ts'
import { authenticateClient } from './client-auth.ts'
import { authorizationCodeGrant } from './grants/authorization-code.ts'
import { refreshTokenGrant } from './grants/refresh-token.ts'

export function sendOAuthError(reply: FastifyReply, err: OAuthError) {
  return reply.status(err.status).headers({ 'cache-control': 'no-store', pragma: 'no-cache', ...err.headers }).type('application/json').send(JSON.stringify(err.toJSON()))
}

/**
 * Reads a form body: form-encoded only, each parameter once and of bounded size (RFC 6749 §3.2).
 * Checked here, not by a route schema: errors are OAuth's JSON (RFC 6749 §5.2), not problems.
 */
export function readForm(request: FastifyRequest): Record<string, string> {
  const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  if (type !== 'application/x-www-form-urlencoded') throw new InvalidRequest('The body must be application/x-www-form-urlencoded.')
  const raw = (request.body ?? {}) as Record<string, unknown>
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(raw)) {
    if (Array.isArray(v)) throw new InvalidRequest(`${k} must appear only once.`)
    const value = String(v)
    if (value.length > MAX_PARAM_LENGTH) throw new InvalidRequest(`${k} is too long.`)
    // NUL cannot be stored or compared by PostgreSQL (a 500 otherwise); no valid parameter holds one.
    if (value.includes('\0') || k.includes('\0')) throw new InvalidRequest('Parameters must not contain NUL characters.')
    out[k] = value
  }
  return out
}

export async function tokenRoutes(app: FastifyInstance, opts: { clock: Clock }): Promise<void> {
  const resources = resourcesOf(app.config.publicUrl)

  app.post('/token', { schema: { hide: true } }, async (request, reply) => {
    const now = opts.clock.now()
    try {
      const ip = await hitRateLimit(app.db, `token:ip:${request.ip}`, app.config.tokenRatePerAddress, 60, now)
      if (!ip.allowed) throw new SlowDown(ip.retryAfterSeconds)
      const body = readForm(request)
      const grantType = body.grant_type
      if (!grantType) throw new InvalidRequest('grant_type is required.')
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') throw new UnsupportedGrantType(`grant_type ${grantType.slice(0, 64)} is not supported; use authorization_code or refresh_token.`)
      const client = await authenticateClient(app.db, request, body, now)
      const perClient = await hitRateLimit(app.db, `token:client:${client.client_id}`, app.config.tokenRatePerClient, 60, now)
      if (!perClient.allowed) throw new SlowDown(perClient.retryAfterSeconds)
      const usedBasic = /^basic /i.test(request.headers.authorization ?? '')
      const tokens =
        grantType === 'authorization_code'
          ? await authorizationCodeGrant(app.db, client, body, resources, now, usedBasic)
          : await refreshTokenGrant(app.db, client, body, resources, now)
      return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).type('application/json').send(JSON.stringify(tokens))
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(reply, err)
      throw err
    }
  })

  // RFC 6749 §3.2: the token endpoint takes POST only.
  app.get('/token', { schema: { hide: true } }, async (_request, reply) =>
    reply.status(405).header('allow', 'POST').type('application/json').send(JSON.stringify({ error: 'invalid_request', error_description: 'Use POST.' })),
  )
}
