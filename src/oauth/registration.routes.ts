/**
 * Dynamic client registration (RFC 7591) at POST /api/oauth/register, for MCP hosts and other
 * clients that register themselves. Such clients belong to no organization until a person
 * authorizes them, and they show in that organization's Settings -> API, marked as self-registered.
 */
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../shared/clock.ts'
import { hitRateLimit } from '../shared/rate-limit.ts'
import { sha256 } from '../shared/ids.ts'
import { insertClient } from './client.repository.ts'
import { newClientId, newClientSecret } from './client.service.ts'
import { MAX_CLIENT_NAME, MAX_REDIRECT_URIS, REGISTRATIONS_PER_HOUR_PER_ADDRESS, SUPPORTED_SCOPES } from './oauth.defaults.ts'
import { InvalidClientMetadata, InvalidRedirectUri, OAuthError, SlowDown } from './oauth.errors.ts'
import { redirectUriProblem } from './redirect-uri.ts'
import { sendOAuthError } from './token/token.routes.ts'

const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const
const APPLICATION_TYPES = ['web', 'native'] as const

/**
 * OpenID Connect Dynamic Registration's `application_type`, which MCP hosts send (MCP 2026-07-28):
 * `native` for an app on the person's device (loopback or custom-scheme redirects), `web` for a
 * hosted one. When omitted it is inferred from the redirect URIs rather than OIDC's fixed `web`,
 * so hosts registered before they sent it keep working; it is recorded and echoed, and sets no rule.
 */
function applicationTypeOf(stated: unknown, redirectUris: string[]): (typeof APPLICATION_TYPES)[number] {
  if (stated !== undefined) {
    if (!APPLICATION_TYPES.includes(stated as never)) throw new InvalidClientMetadata(`application_type must be one of ${APPLICATION_TYPES.join(', ')}.`)
    return stated as (typeof APPLICATION_TYPES)[number]
  }
  const onDevice = (uri: string) => {
    const url = new URL(uri)
    return !url.protocol.startsWith('http') || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  }
  return redirectUris.every(onDevice) ? 'native' : 'web'
}

interface RegistrationRequest {
  redirect_uris?: unknown
  client_name?: unknown
  token_endpoint_auth_method?: unknown
  grant_types?: unknown
  response_types?: unknown
  scope?: unknown
  application_type?: unknown
}

function validate(body: RegistrationRequest) {
  if (!Array.isArray(body.redirect_uris) || body.redirect_uris.length === 0) throw new InvalidRedirectUri('redirect_uris must list at least one URI.')
  if (body.redirect_uris.length > MAX_REDIRECT_URIS) throw new InvalidRedirectUri(`at most ${MAX_REDIRECT_URIS} redirect_uris.`)
  for (const uri of body.redirect_uris) {
    const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'must be a string'
    if (problem) throw new InvalidRedirectUri(`redirect URI ${String(uri).slice(0, 200)} ${problem}.`)
  }
  const method = body.token_endpoint_auth_method ?? 'client_secret_basic' // RFC 7591 §2 default
  if (!AUTH_METHODS.includes(method as never)) throw new InvalidClientMetadata(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}.`)
  const grants = body.grant_types ?? ['authorization_code']
  if (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) throw new InvalidClientMetadata('grant_types may contain authorization_code and refresh_token only.')
  const responses = body.response_types ?? ['code']
  if (!Array.isArray(responses) || responses.some((r) => r !== 'code')) throw new InvalidClientMetadata('response_types may contain code only.')
  if (body.client_name !== undefined && (typeof body.client_name !== 'string' || body.client_name.length > MAX_CLIENT_NAME || body.client_name.includes('\0'))) throw new InvalidClientMetadata('client_name must be a string of at most 200 characters.')
  let scopes = [...SUPPORTED_SCOPES] as string[]
  if (body.scope !== undefined) {
    if (typeof body.scope !== 'string') throw new InvalidClientMetadata('scope must be a space-separated string.')
    const requested = body.scope.split(' ').filter(Boolean)
    const unknown = requested.filter((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s))
    if (unknown.length) throw new InvalidClientMetadata(`unknown scope ${unknown.join(', ')}.`)
    if (requested.length) scopes = [...new Set(requested)]
  }
  const applicationType = applicationTypeOf(body.application_type, body.redirect_uris as string[])
  return { redirectUris: body.redirect_uris as string[], applicationType, method: method as (typeof AUTH_METHODS)[number], grants: grants as string[], name: (body.client_name as string | undefined)?.trim() || 'Unnamed application', scopes }
}

export async function registrationRoutes(app: FastifyInstance, opts: { clock: Clock }): Promise<void> {
  app.post('/register', { schema: { hide: true } }, async (request, reply) => {
    try {
      const limit = await hitRateLimit(app.db, `register:ip:${request.ip}`, REGISTRATIONS_PER_HOUR_PER_ADDRESS, 3600, opts.clock.now())
      if (!limit.allowed) throw new SlowDown(limit.retryAfterSeconds)
      if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) throw new InvalidClientMetadata('The body must be a JSON object.')
      // No route schema: RFC 7591 §3.2.2 answers invalid_client_metadata or invalid_redirect_uri, not a problem.
      const v = validate(request.body)
      const clientId = newClientId()
      const secret = v.method === 'none' ? null : newClientSecret()
      const issuedAt = Math.floor(opts.clock.now().getTime() / 1000)
      await insertClient(app.db, {
        client_id: clientId,
        org_id: null,
        name: v.name,
        redirect_uris: v.redirectUris,
        scopes: v.scopes,
        secret_hash: secret ? sha256(secret) : null,
        auth_method: v.method,
        registration: 'dynamic',
        metadata: JSON.stringify({ registered_from: request.ip, application_type: v.applicationType }),
      })
      return reply
        .status(201)
        .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
        .send({
          client_id: clientId,
          ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
          client_id_issued_at: issuedAt,
          client_name: v.name,
          redirect_uris: v.redirectUris,
          application_type: v.applicationType,
          token_endpoint_auth_method: v.method,
          grant_types: v.grants,
          response_types: ['code'],
          scope: v.scopes.join(' '),
        })
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(reply, err)
      throw err
    }
  })
}
