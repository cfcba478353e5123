/**
 * Authentication for /api/v1: a browser session cookie (with the CSRF header on writes) today, a
 * bearer token from the OAuth server once it is registered. Either one sets `request.auth`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AuthContext, Scope } from '../shared/auth-context.ts'
import { ALL_SCOPES } from '../shared/auth-context.ts'
import { Forbidden, Unauthenticated } from '../shared/errors.ts'
import { csrfMatches, findSession, SESSION_COOKIE } from '../orgs/session.service.ts'

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null
    sessionToken: string | null
  }
}

/** Bearer verification is supplied by the OAuth capability; null answers "no bearer support". */
export type BearerVerifier = (request: FastifyRequest, token: string) => Promise<AuthContext>

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function authenticate(options: { bearer: BearerVerifier; challenge: () => Record<string, string> }) {
  return async function authenticateRequest(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization
    if (header !== undefined) {
      // RFC 6750 §2.1: "Bearer" followed by the token; the scheme is case-insensitive (RFC 9110 §11.1).
      const match = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header)
      if (!match) throw new Unauthenticated('The Authorization header must be "Bearer <token>".', { ...options.challenge(), 'www-authenticate': `${options.challenge()['www-authenticate']}, error="invalid_request"` }, 'invalid_request')
      request.auth = await options.bearer(request, match[1])
      return
    }
    const token = request.cookies[SESSION_COOKIE]
    if (token) {
      const session = await findSession(request.server.db, token)
      if (session) {
        // A cookie is sent by the browser on cross-site requests too: writes must prove they come from our UI.
        if (!SAFE_METHODS.has(request.method) && !csrfMatches(session, request.headers['x-csrf-token'] as string | undefined)) {
          throw new Forbidden('Send the x-csrf-token header (from GET /api/v1/me) with every change made with a session cookie.', 'csrf_failed')
        }
        request.sessionToken = token
        request.auth = { orgId: session.orgId, userId: session.userId, role: session.role, scopes: new Set(ALL_SCOPES), via: 'session' }
        return
      }
    }
    throw new Unauthenticated('Sign in, or send an OAuth access token as "Authorization: Bearer <token>".', options.challenge())
  }
}

/** A preHandler that answers 403 insufficient_scope unless every listed scope was granted. */
export function requireScopes(...needed: Scope[]) {
  return async function checkScopes(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const auth = request.auth!
    const missing = needed.filter((s) => !auth.scopes.has(s))
    if (missing.length === 0) return
    // Ask for what was granted plus what is needed: some clients replace their scope with the challenge's.
    const scope = [...new Set([...auth.scopes, ...needed])].join(' ')
    throw new Forbidden(`This call needs the scope${needed.length > 1 ? 's' : ''} ${needed.join(' and ')}.`, 'insufficient_scope', {
      // RFC 6750 §3.1 plus RFC 9728 §5.1, so a client can step up without guessing where to ask.
      'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${request.server.config.publicUrl}/.well-known/oauth-protected-resource"`,
    })
  }
}

export function requireAdmin() {
  return async function checkAdmin(request: FastifyRequest): Promise<void> {
    if (request.auth?.role !== 'admin') throw new Forbidden('Only administrators of the organization can do this.', 'admin_required')
  }
}
