/**
 * Authentication for /api/v1: a browser session cookie (with the CSRF header on writes) or a bearer
 * token from the OAuth server. Either one sets `request.auth`, except a bearer token on a route
 * that checks it in its own statement (`config.bearerInStatement`, the record lists): there it
 * sets `request.presentedBearer`, and the route's statement finds and judges the token (one round
 * trip instead of two, records/list-with-bearer.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AuthContext, Scope } from '../shared/auth-context.ts'
import { ALL_SCOPES } from '../shared/auth-context.ts'
import { Forbidden, Unauthenticated } from '../shared/errors.ts'
import { constantTimeEqual } from '../shared/ids.ts'

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null
    sessionToken: string | null
    /** A bearer token left to the route's own statement; `auth` is null until that statement ran. */
    presentedBearer: PresentedBearer | null
    /** What the request authenticated with, so a long-lived response can check it again. */
    credential: Credential | null
  }
  interface FastifyContextConfig {
    /** The route reads the token in its own statement and judges it with `presentedBearer.accept`. */
    bearerInStatement?: boolean
  }
}

/** The row a bearer lookup statement returns: opaque here, judged by the OAuth capability's `accept`. */
export type BearerRow = Record<string, unknown>

/** A browser session as the request sees it; the orgs capability looks it up. */
export interface SessionInfo {
  userId: string
  orgId: string
  role: 'admin' | 'member'
  csrfToken: string
}

/** Browser sessions, supplied by the orgs capability (like the bearer check by OAuth). */
export interface SessionLookup {
  /** The cookie that carries the session token. */
  cookie: string
  /** The session, still valid, with the person's role in its active organization; null otherwise. */
  find(token: string): Promise<SessionInfo | null>
  /** The person's role in `orgId` while the session is valid and they are a member there; null otherwise. */
  roleIn(token: string, orgId: string): Promise<'admin' | 'member' | null>
}

/** Bearer verification is supplied by the OAuth capability. */
export type BearerVerifier = (request: FastifyRequest, token: string) => Promise<AuthContext>

/** A bearer token not yet looked up: what a statement needs to find it, and the rules to judge the row. */
export interface PresentedBearer {
  tokenHash: Buffer
  now: Date
  /** The resources whose tokens serve this request (RFC 8707). */
  servedBy: string[]
  /** The lookup of the two-step check, $1 the hash and $2 the time: its row is what `accept` judges. */
  lookupSql: string
  /** The row found (null: no token valid now) as an AuthContext, or 401 invalid_token as the two-step check answers. */
  accept(row: BearerRow | null): AuthContext
}

export interface BearerCheck {
  /** Looks the token up and judges it: one query. */
  verify: BearerVerifier
  /** The token's hash and the rules without the lookup; 401 at once for a token this server never issues. */
  present(token: string): PresentedBearer
}

/** The presented secret (a bearer token or a session cookie); never logged. */
export type Credential = { kind: 'bearer'; token: string } | { kind: 'session'; token: string }

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function authenticate(options: { bearer: BearerCheck; sessions: SessionLookup; challenge: () => Record<string, string> }) {
  return async function authenticateRequest(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization
    if (header !== undefined) {
      // RFC 6750 §2.1: "Bearer" followed by the token; the scheme is case-insensitive (RFC 9110 §11.1).
      const match = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header)
      if (!match) throw new Unauthenticated('The Authorization header must be "Bearer <token>".', { ...options.challenge(), 'www-authenticate': `${options.challenge()['www-authenticate']}, error="invalid_request"` }, 'invalid_request')
      if (request.routeOptions.config?.bearerInStatement) request.presentedBearer = options.bearer.present(match[1])
      else {
        request.auth = await options.bearer.verify(request, match[1])
        request.credential = { kind: 'bearer', token: match[1] }
      }
      return
    }
    const token = request.cookies[options.sessions.cookie]
    if (token) {
      const session = await options.sessions.find(token)
      if (session) {
        // A cookie is sent by the browser on cross-site requests too: writes must prove they come from our UI.
        if (!SAFE_METHODS.has(request.method) && !csrfMatches(session.csrfToken, request.headers['x-csrf-token'])) {
          throw new Forbidden('Send the x-csrf-token header (from GET /api/v1/me) with every change made with a session cookie.', 'csrf_failed')
        }
        request.sessionToken = token
        request.credential = { kind: 'session', token }
        request.auth = { orgId: session.orgId, userId: session.userId, role: session.role, scopes: new Set(ALL_SCOPES), via: 'session' }
        return
      }
    }
    throw new Unauthenticated('Sign in, or send an OAuth access token as "Authorization: Bearer <token>".', options.challenge())
  }
}

/**
 * The request's credential judged again, now, for its organization: the AuthContext it grants
 * today, or null when it no longer grants access (token expired or revoked, client revoked, person
 * removed, session ended). Long-lived responses call it periodically (http/long-lived).
 */
function csrfMatches(expected: string, presented: string | string[] | undefined): boolean {
  return typeof presented === 'string' && constantTimeEqual(expected, presented)
}

export function accessRecheck(bearer: BearerCheck, sessions: SessionLookup) {
  return async function recheck(request: FastifyRequest): Promise<AuthContext | null> {
    const credential = request.credential
    const orgId = request.auth?.orgId
    if (!credential || !orgId) return null
    if (credential.kind === 'bearer') {
      try {
        return await bearer.verify(request, credential.token)
      } catch (err) {
        if (err instanceof Unauthenticated) return null
        throw err
      }
    }
    const role = await sessions.roleIn(credential.token, orgId)
    return role === null ? null : { ...request.auth!, role }
  }
}

/** A preHandler that answers 403 insufficient_scope unless every listed scope was granted. */
export function requireScopes(...needed: Scope[]) {
  return async function checkScopes(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    // A bearer left to the route's statement is not judged yet: the route runs this check after it.
    if (request.auth === null && request.presentedBearer !== null) return
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
