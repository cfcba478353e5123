/**
 * GET /oauth/authorize shows the consent page (after sign-in); POST /oauth/authorize takes the
 * decision and redirects back with a code or an error, always with `state` and `iss` (RFC 9207).
 * No CORS here (RFC 9700 §2.6), and the pages cannot be framed.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { randomSecret, sha256, constantTimeEqual } from '../../shared/ids.ts'
import { findSession, SESSION_COOKIE, findUserById, listMembershipsOfUser } from '../../orgs/index.ts'
import { AUTHORIZATION_CODE_TTL_SECONDS, SECRET_BYTES } from '../oauth.defaults.ts'
import { AccessDenied, InvalidRequest, OAuthError } from '../oauth.errors.ts'
import { ensureClientAccess, findClientAccess } from '../client.repository.ts'
import { insertCode } from '../token.repository.ts'
import { resourcesOf } from '../resource.ts'
import type { Clock } from '../../shared/clock.ts'
import { readAuthorizeParams, type AuthorizeContext } from './authorize-request.ts'
import { runAuthorizeChecks } from './authorize.checks.ts'
import { authorizeErrorPage, consentPage } from './consent-page.ts'

const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https: http:; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
}

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(html)
}

/** Appends the response parameters to the redirect URI, keeping its own query (RFC 6749 §4.1.2). */
function redirectWith(reply: FastifyReply, redirectUri: string, params: Record<string, string | undefined>) {
  const url = new URL(redirectUri)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v)
  return reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).redirect(url.href, 303)
}

export async function authorizeRoutes(app: FastifyInstance, opts: { clock: Clock }): Promise<void> {
  const issuer = app.config.publicUrl
  const resources = resourcesOf(issuer)

  async function check(request: FastifyRequest, source: Record<string, unknown>, reply: FastifyReply): Promise<AuthorizeContext | null> {
    const { params, repeated } = readAuthorizeParams(source)
    const ctx: AuthorizeContext = { db: app.db, params, repeated, issuer, resources, allowPrivateOutbound: app.config.allowPrivateOutbound, metadataDocuments: app.config.oauthMetadataDocuments, now: opts.clock.now() }
    try {
      await runAuthorizeChecks(ctx)
      return ctx
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err
      request.log.info({ error: err.error }, err.message)
      if (!err.allowRedirect || !ctx.redirectUri) {
        await sendPage(reply, 400, authorizeErrorPage(err.message))
        return null
      }
      // RFC 9700 §4.11.2: authenticate the user before any redirect, errors included (a self-registered
      // client could otherwise bounce anyone to its registered phishing page with a bad request).
      if (!(await signedIn(request))) {
        const returnTo = request.method === 'GET' ? request.url : '/oauth/authorize?' + new URLSearchParams(params as Record<string, string>).toString()
        await reply.redirect(`/sign-in?return_to=${encodeURIComponent(returnTo)}`, 303)
        return null
      }
      await redirectWith(reply, ctx.redirectUri, { error: err.error, error_description: err.message, state: params.state, iss: issuer })
      return null
    }
  }

  async function signedIn(request: FastifyRequest) {
    const token = request.cookies[SESSION_COOKIE]
    return token ? findSession(app.db, token) : null
  }

  // No route schemas: a bad parameter is answered by the OAuth checks, with an error page or a
  // redirect (RFC 6749 §4.1.2.1), not a 400 problem; they read the raw parameters.
  app.get('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
    const ctx = await check(request, request.query as Record<string, unknown>, reply)
    if (!ctx) return reply
    const session = await signedIn(request)
    // Sign in first; the sign-in page returns here with the same query (a same-site relative URL).
    if (!session) return reply.redirect(`/sign-in?return_to=${encodeURIComponent(request.url)}`, 303)
    const memberships = await listMembershipsOfUser(app.db, session.userId)
    const orgs = ctx.client!.org_id ? memberships.filter((m) => m.id === ctx.client!.org_id) : memberships
    if (orgs.length === 0) {
      return redirectWith(reply, ctx.redirectUri!, { error: 'access_denied', error_description: 'You are not a member of the organization that owns this application.', state: ctx.params.state, iss: issuer })
    }
    const user = await findUserById(app.db, session.userId)
    return sendPage(reply, 200, consentPage(ctx, orgs, session.orgId, session.csrfToken, user?.email ?? ''))
  })

  app.post('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>
    const ctx = await check(request, body, reply)
    if (!ctx) return reply
    const session = await signedIn(request)
    if (!session) return reply.redirect(`/sign-in?return_to=${encodeURIComponent('/oauth/authorize?' + new URLSearchParams(ctx.params as Record<string, string>).toString())}`, 303)
    // The consent form is CSRF-protected with the session's token.
    if (typeof body.csrf_token !== 'string' || !constantTimeEqual(body.csrf_token, session.csrfToken)) {
      return sendPage(reply, 403, authorizeErrorPage('The consent form expired or was not sent from this site. Start again from the application.'))
    }
    const redirect = (err: OAuthError) => redirectWith(reply, ctx.redirectUri!, { error: err.error, error_description: err.message, state: ctx.params.state, iss: issuer })
    if (body.decision !== 'allow') return redirect(new AccessDenied('The user denied the request.'))
    const orgId = typeof body.org_id === 'string' ? body.org_id : ''
    const memberships = await listMembershipsOfUser(app.db, session.userId)
    const client = ctx.client!
    if (!memberships.some((m) => m.id === orgId) || (client.org_id && client.org_id !== orgId)) {
      return redirect(new InvalidRequest('The chosen organization is not available for this application.'))
    }
    if (!client.org_id) await ensureClientAccess(app.db, orgId, client.client_id)
    const access = await findClientAccess(app.db, orgId, client.client_id)
    if (!access || access.revoked_at) return redirect(new AccessDenied('An administrator of this organization has revoked this application.'))

    const code = randomSecret(SECRET_BYTES)
    const now = opts.clock.now()
    await insertCode(app.db, {
      code_hash: sha256(code),
      org_id: orgId,
      client_id: client.client_id,
      user_id: session.userId,
      redirect_uri: ctx.redirectUri!,
      redirect_uri_sent: ctx.redirectUriSent!,
      code_challenge: ctx.codeChallenge!,
      scopes: ctx.scopes!,
      resource: ctx.resource!,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_SECONDS * 1000).toISOString(),
    })
    return redirectWith(reply, ctx.redirectUri!, { code, state: ctx.params.state, iss: issuer })
  })
}
