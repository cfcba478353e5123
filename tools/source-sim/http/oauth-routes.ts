// Owns the OAuth 2.0 web server flow as the platform runs it: the authorize page (an "Allow" /
// "Deny" form; PKCE challenge accepted), the token endpoint (authorization_code and refresh_token
// grants, the real response fields), userinfo / identity URL, and revoke. Mounted twice: at the
// root for production and under /sandbox for the sandbox org (the spec's test.salesforce.com).
import { createHmac } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { OAuthError, invalidSession } from '../errors.ts'
import type { Org } from '../org.ts'
import { bearer, type SimContext } from './context.ts'
import { Sessions } from './sessions.ts'

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function page(org: Org, clientId: string, params: Record<string, string>, action: string): string {
  const hidden = Object.entries(params).map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`).join('\n      ')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Allow Access? | Source platform simulator</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font-size:1rem;padding:.5rem 1.5rem;margin-right:.5rem}</style></head>
<body>
  <h1>Allow Access?</h1>
  <p><strong>${esc(clientId)}</strong> is asking to access your data in <strong>${esc(org.name)}</strong>${org.sandbox ? ' (sandbox)' : ''} as user <code>${esc(org.userId)}</code>.</p>
  <p>Scopes: <code>${esc(params.scope || 'api refresh_token')}</code></p>
  <form method="post" action="${esc(action)}">
      ${hidden}
      <button type="submit" name="decision" value="allow" id="allow">Allow</button>
      <button type="submit" name="decision" value="deny" id="deny">Deny</button>
  </form>
</body></html>`
}

function identity(ctx: SimContext, org: Org, loginBase: string): Record<string, unknown> {
  const user = org.data.get('User')!
  const base = ctx.baseUrl
  const v = '{version}'
  return {
    id: `${loginBase}/id/${org.orgId}/${org.userId}`,
    sub: `${loginBase}/id/${org.orgId}/${org.userId}`,
    asserted_user: true,
    user_id: org.userId,
    organization_id: org.orgId,
    username: String(user.value(0, 'Username') ?? 'user@example.com'),
    preferred_username: String(user.value(0, 'Username') ?? 'user@example.com'),
    nick_name: 'admin',
    nickname: 'admin',
    display_name: String(user.value(0, 'Name') ?? 'Admin'),
    name: String(user.value(0, 'Name') ?? 'Admin'),
    email: String(user.value(0, 'Email') ?? 'admin@example.com'),
    email_verified: true,
    given_name: String(user.value(0, 'FirstName') ?? ''),
    family_name: String(user.value(0, 'LastName') ?? ''),
    zoneinfo: 'America/Los_Angeles',
    active: true,
    user_type: 'STANDARD',
    language: 'en_US',
    locale: 'en_US',
    utcOffset: -28800000,
    is_app_installed: true,
    is_sandbox: org.sandbox,
    urls: {
      enterprise: `${base}/services/Soap/c/${v}/${org.orgId.slice(0, 15)}`,
      metadata: `${base}/services/Soap/m/${v}/${org.orgId.slice(0, 15)}`,
      partner: `${base}/services/Soap/u/${v}/${org.orgId.slice(0, 15)}`,
      rest: `${base}/services/data/v${v}/`,
      sobjects: `${base}/services/data/v${v}/sobjects/`,
      search: `${base}/services/data/v${v}/search/`,
      query: `${base}/services/data/v${v}/query/`,
      recent: `${base}/services/data/v${v}/recent/`,
      tooling_rest: `${base}/services/data/v${v}/tooling/`,
      profile: `${base}/${org.userId}`,
      custom_domain: base,
    },
    last_modified_date: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
  }
}

export function oauthRoutes(app: FastifyInstance, ctx: SimContext, prefix: '' | '/sandbox'): void {
  const org = () => (prefix ? ctx.sandbox : ctx.production)
  const loginBase = () => ctx.baseUrl + prefix

  const client = (id: string | undefined) => {
    const c = id ? ctx.sessions.clients.get(id) : undefined
    if (!c) throw new OAuthError(400, 'invalid_client_id', 'client identifier invalid')
    return c
  }

  app.get(`${prefix}/services/oauth2/authorize`, async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as Record<string, string>
    if (q.response_type !== 'code') return reply.code(400).type('text/html').send('<h1>error=unsupported_response_type</h1><p>response type not supported</p>')
    const c = ctx.sessions.clients.get(q.client_id ?? '')
    if (!c) return reply.code(400).type('text/html').send('<h1>error=invalid_client_id</h1><p>OAUTH_EC_APP_NOT_FOUND: client identifier invalid</p>')
    if (!q.redirect_uri || !ctx.sessions.redirectAllowed(c, q.redirect_uri)) return reply.code(400).type('text/html').send('<h1>error=redirect_uri_mismatch</h1><p>redirect_uri must match configuration</p>')
    const keep: Record<string, string> = {}
    for (const k of ['client_id', 'redirect_uri', 'state', 'scope', 'code_challenge', 'code_challenge_method']) if (q[k] !== undefined) keep[k] = q[k]
    return reply.type('text/html; charset=utf-8').send(page(org(), c.id, keep, `${prefix}/services/oauth2/authorize`))
  })

  app.post(`${prefix}/services/oauth2/authorize`, async (req: FastifyRequest, reply: FastifyReply) => {
    const b = (req.body ?? {}) as Record<string, string>
    const c = client(b.client_id)
    if (!b.redirect_uri || !ctx.sessions.redirectAllowed(c, b.redirect_uri)) throw new OAuthError(400, 'redirect_uri_mismatch', 'redirect_uri must match configuration')
    const target = new URL(b.redirect_uri)
    if (b.decision !== 'allow') {
      target.searchParams.set('error', 'access_denied')
      target.searchParams.set('error_description', 'end-user denied authorization')
    } else {
      const code = ctx.sessions.issueCode({ org: org(), clientId: c.id, redirectUri: b.redirect_uri, challenge: b.code_challenge || null, scope: b.scope || 'api refresh_token' })
      target.searchParams.set('code', code)
    }
    if (b.state !== undefined) target.searchParams.set('state', b.state)
    return reply.redirect(target.toString(), 302)
  })

  app.post(`${prefix}/services/oauth2/token`, async (req: FastifyRequest, reply: FastifyReply) => {
    const b = (req.body ?? {}) as Record<string, string>
    const c = client(b.client_id)
    if (b.client_secret !== undefined && b.client_secret !== c.secret) throw new OAuthError(400, 'invalid_client', 'invalid client credentials')
    let grantOrg: Org, scope: string, refresh: string | undefined
    if (b.grant_type === 'authorization_code') {
      const code = ctx.sessions.takeCode(b.code ?? '')
      if (code === null) throw new OAuthError(400, 'invalid_grant', 'invalid authorization code')
      if (code === 'expired') throw new OAuthError(400, 'invalid_grant', 'expired authorization code')
      if (code.clientId !== c.id) throw new OAuthError(400, 'invalid_grant', 'invalid authorization code')
      if (b.redirect_uri !== code.redirectUri) throw new OAuthError(400, 'redirect_uri_mismatch', 'redirect_uri must match configuration')
      if (code.challenge) {
        if (!b.code_verifier) throw new OAuthError(400, 'invalid_grant', 'invalid code verifier')
        if (Sessions.challengeOf(b.code_verifier) !== code.challenge) throw new OAuthError(400, 'invalid_request', 'invalid code verifier')
      } else if (b.client_secret === undefined) throw new OAuthError(400, 'invalid_client', 'invalid client credentials')
      grantOrg = code.org
      scope = code.scope
    } else if (b.grant_type === 'refresh_token') {
      const r = ctx.sessions.refreshGrant(b.refresh_token ?? '')
      if (!r || r.clientId !== c.id) throw new OAuthError(400, 'invalid_grant', 'expired access/refresh token')
      grantOrg = r.org
      scope = r.scope
      refresh = b.refresh_token
    } else throw new OAuthError(400, 'unsupported_grant_type', 'grant type not supported')
    const scopes = scope.split(/\s+/)
    const wantsRefresh = b.grant_type === 'authorization_code' && (scopes.includes('refresh_token') || scopes.includes('offline_access') || scopes.includes('full'))
    const tokens = ctx.sessions.issueAccess(grantOrg, c.id, scope, wantsRefresh, refresh)
    const issuedAt = String(Date.now())
    const id = `${loginBase()}/id/${grantOrg.orgId}/${grantOrg.userId}`
    const body: Record<string, unknown> = { access_token: tokens.access }
    if (tokens.refresh) body.refresh_token = tokens.refresh
    body.signature = createHmac('sha256', c.secret).update(id + issuedAt).digest('base64')
    body.scope = scope
    if (scopes.includes('openid')) {
      const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
      const head = enc({ alg: 'HS256', typ: 'JWT' })
      const claims = enc({ iss: loginBase(), sub: id, aud: c.id, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 300 })
      body.id_token = `${head}.${claims}.${createHmac('sha256', c.secret).update(`${head}.${claims}`).digest('base64url')}`
    }
    Object.assign(body, { instance_url: ctx.baseUrl, id, token_type: 'Bearer', issued_at: issuedAt })
    return reply.send(body)
  })

  const whoami = async (req: FastifyRequest, reply: FastifyReply) => {
    const token = bearer(req) ?? (req.query as { oauth_token?: string }).oauth_token ?? null
    const s = token ? ctx.sessions.session(token) : null
    if (!s) {
      if (req.url.includes('/userinfo')) return reply.code(403).type('text/plain').send('Bad_OAuth_Token')
      throw invalidSession()
    }
    const body = identity(ctx, s.org, prefix ? ctx.baseUrl + '/sandbox' : ctx.baseUrl)
    return reply.send(body)
  }
  app.get(`${prefix}/services/oauth2/userinfo`, whoami)
  app.post(`${prefix}/services/oauth2/userinfo`, whoami)
  if (prefix === '') app.get('/id/:org/:user', whoami)
  else app.get('/sandbox/id/:org/:user', whoami)

  const revoke = async (req: FastifyRequest, reply: FastifyReply) => {
    const token = ((req.body ?? {}) as Record<string, string>).token ?? (req.query as Record<string, string>).token
    if (!token || !ctx.sessions.revoke(token)) throw new OAuthError(400, 'unsupported_token_type', 'this token type is not supported')
    return reply.code(200).send()
  }
  app.post(`${prefix}/services/oauth2/revoke`, revoke)
  app.get(`${prefix}/services/oauth2/revoke`, revoke)
}
