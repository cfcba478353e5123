/**
 * oauth-checklist.md C.23-C.36: the token endpoint, plus refresh token rotation and reuse detection,
 * and public (PKCE-only) / confidential clients from dynamic registration. Time moves with a ManualClock.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { targets } from '../helpers/databases.ts'
import { createOrgWithAdmin, type Member } from '../helpers/build-app.ts'
import {
  api,
  API_RESOURCE,
  basic,
  body,
  closeHarness,
  confidentialClient,
  countRows,
  createHarness,
  MCP_RESOURCE,
  oauthError,
  obtainCode,
  obtainTokens,
  pkce,
  REDIRECT,
  redeem,
  resetHarness,
  tokenRequest,
  type OAuthHarness,
  type TestClient,
  type Tokens,
} from './helpers.ts'

function expectOAuthError(res: LightMyRequestResponse, status: number, error: string | string[]) {
  expect(res.statusCode).toBe(status)
  const e = oauthError(res)
  expect([error].flat()).toContain(e.error)
  expect(e.error).toMatch(/^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/) // RFC 6749 §5.2 restricted ASCII
  expect(res.headers['cache-control']).toBe('no-store')
  expect(res.body).not.toContain('access_token')
  expect(res.body).not.toContain('crm_at_')
  expect(res.body).not.toContain('crm_rt_')
}

async function expectTokenWorks(h: OAuthHarness, token: string) {
  const res = await api(h.app, token)
  expect(res.statusCode).toBe(200)
}

async function expectTokenDead(h: OAuthHarness, token: string) {
  const res = await api(h.app, token)
  expect(res.statusCode).toBe(401)
  expect(res.headers['www-authenticate']).toContain('error="invalid_token"')
}

describe.each(await targets())('OAuth checklist C.23-36 (token endpoint) on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  const auth = (c: TestClient) => ({ auth: { id: c.client_id, secret: c.client_secret } })

  beforeAll(async () => {
    h = await createHarness(target)
  })
  afterAll(() => closeHarness(h))
  beforeEach(async () => {
    await resetHarness(h)
    admin = await createOrgWithAdmin(h.app)
    client = await confidentialClient(h.app, admin.orgId)
  })

  it('C.23 happy path: 200 JSON, no-store, Bearer, 3600 s, prefixed tokens, scope echoed (Basic and post)', async () => {
    const c = await obtainCode(admin, client, { scope: 'crm:read erp:read' })
    const res = await redeem(h.app, client, c)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers.pragma).toBe('no-cache')
    const t = body<Tokens>(res)
    expect(t.token_type).toBe('Bearer')
    expect(t.expires_in).toBe(3600)
    expect(t.access_token).toMatch(/^crm_at_[A-Za-z0-9_-]{43,}$/)
    expect(t.refresh_token).toMatch(/^crm_rt_[A-Za-z0-9_-]{43,}$/)
    expect(t.scope).toBe('crm:read erp:read')
    await expectTokenWorks(h, t.access_token)
    // client_secret_post
    const d = await obtainCode(admin, client)
    const post = await tokenRequest(h.app, { grant_type: 'authorization_code', code: d.code, code_verifier: d.verifier, redirect_uri: d.redirectUri, client_id: client.client_id, client_secret: client.client_secret })
    expect(post.statusCode).toBe(200)
    expect(body(post).scope).toBe('crm:read crm:write')
    // Without scope at authorize: the client's registered scopes.
    const e = await obtainCode(admin, client, { scope: undefined, resource: undefined })
    const def = await redeem(h.app, client, e, { resource: undefined })
    expect(body(def).scope.split(' ').sort()).toEqual(['crm:read', 'crm:write', 'erp:read'])
  })

  it('C.24 GET or a non-form Content-Type -> 405 / 400 invalid_request, nothing issued', async () => {
    const c = await obtainCode(admin, client)
    const q = new URLSearchParams({ grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri, client_id: client.client_id, client_secret: client.client_secret })
    const get = await h.app.inject({ method: 'GET', url: `/api/oauth/token?${q}` })
    expect([400, 405]).toContain(get.statusCode)
    expect(oauthError(get).error).toBe('invalid_request')
    const asJson = await h.app.inject({ method: 'POST', url: '/api/oauth/token', headers: { authorization: basic(client.client_id, client.client_secret) }, payload: { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri } })
    expectOAuthError(asJson, 400, 'invalid_request')
    for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/octet-stream']) {
      const res = await h.app.inject({ method: 'POST', url: '/api/oauth/token', headers: { 'content-type': type, authorization: basic(client.client_id, client.client_secret) }, payload: q.toString() })
      expect(res.statusCode, type).toBe(400)
      expect(oauthError(res).error, type).toBe('invalid_request')
    }
    const none = await h.app.inject({ method: 'POST', url: '/api/oauth/token', headers: { authorization: basic(client.client_id, client.client_secret) } })
    expect(none.statusCode).toBe(400)
    expect(oauthError(none).error).toBe('invalid_request')
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
    // The code was not burnt by those attempts.
    expect((await redeem(h.app, client, c)).statusCode).toBe(200)
  })

  it('C.25 wrong secret, unknown or revoked client_id -> 401 invalid_client (WWW-Authenticate: Basic when Basic was used)', async () => {
    const c = await obtainCode(admin, client)
    const grant = { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri }
    const wrongSecret = 'crm_cs_' + 'A'.repeat(43)
    const wrongBasic = await tokenRequest(h.app, grant, { auth: { id: client.client_id, secret: wrongSecret } })
    expectOAuthError(wrongBasic, 401, 'invalid_client')
    expect(String(wrongBasic.headers['www-authenticate'])).toMatch(/^Basic /)
    const wrongPost = await tokenRequest(h.app, { ...grant, client_id: client.client_id, client_secret: wrongSecret })
    expectOAuthError(wrongPost, 401, 'invalid_client')
    expect(wrongPost.headers['www-authenticate']).toBeUndefined()
    const noSecret = await tokenRequest(h.app, { ...grant, client_id: client.client_id })
    expectOAuthError(noSecret, 401, 'invalid_client')
    const unknownPost = await tokenRequest(h.app, { ...grant, client_id: 'crm_unknown', client_secret: client.client_secret })
    expectOAuthError(unknownPost, 401, 'invalid_client')
    const unknownBasic = await tokenRequest(h.app, grant, { auth: { id: 'crm_unknown', secret: client.client_secret } })
    expectOAuthError(unknownBasic, 401, 'invalid_client')
    expect(String(unknownBasic.headers['www-authenticate'])).toMatch(/^Basic /)
    const anonymous = await tokenRequest(h.app, grant)
    expectOAuthError(anonymous, 401, 'invalid_client')
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
    // revoked
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/settings/api-clients/${client.client_id}` })).statusCode).toBe(204)
    const revokedBasic = await tokenRequest(h.app, grant, auth(client))
    expectOAuthError(revokedBasic, 401, 'invalid_client')
    expect(String(revokedBasic.headers['www-authenticate'])).toMatch(/^Basic /)
    const revokedPost = await tokenRequest(h.app, { ...grant, client_id: client.client_id, client_secret: client.client_secret })
    expectOAuthError(revokedPost, 401, 'invalid_client')
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
  })

  it('C.26 credentials via both Basic and the body -> 400 invalid_request', async () => {
    const c = await obtainCode(admin, client)
    const grant = { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri }
    expectOAuthError(await tokenRequest(h.app, { ...grant, client_id: client.client_id, client_secret: client.client_secret }, auth(client)), 400, 'invalid_request')
    expectOAuthError(await tokenRequest(h.app, { ...grant, client_secret: client.client_secret }, auth(client)), 400, 'invalid_request')
    const other = await confidentialClient(h.app, admin.orgId)
    expectOAuthError(await tokenRequest(h.app, { ...grant, client_id: other.client_id }, auth(client)), 400, 'invalid_request')
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
  })

  it('C.27 code of client A redeemed by authenticated client B -> 400 invalid_grant (and A keeps its code)', async () => {
    const b = await confidentialClient(h.app, admin.orgId)
    const c = await obtainCode(admin, client)
    expectOAuthError(await redeem(h.app, b, c), 400, 'invalid_grant')
    expectOAuthError(await tokenRequest(h.app, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri, client_id: b.client_id, client_secret: b.client_secret }), 400, 'invalid_grant')
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
    // Not a DoS vector: the rightful client can still redeem it.
    expect((await redeem(h.app, client, c)).statusCode).toBe(200)
  })

  it('C.28 redirect_uri different from the authorize value -> 400 invalid_grant', async () => {
    const two = await confidentialClient(h.app, admin.orgId, { redirectUris: [REDIRECT, 'https://app.example.test/other'] })
    const c = await obtainCode(admin, two)
    for (const uri of ['https://app.example.test/other', `${REDIRECT}/`, `${REDIRECT}?x=1`, 'https://evil.example.test/callback']) {
      expectOAuthError(await redeem(h.app, two, c, { redirect_uri: uri }), 400, 'invalid_grant')
    }
    // Sent at authorize, so required at the token endpoint (RFC 6749 §4.1.3).
    expectOAuthError(await redeem(h.app, two, c, { redirect_uri: undefined }), 400, 'invalid_grant')
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
    expect((await redeem(h.app, two, c)).statusCode).toBe(200)
  })

  it('C.29 code_verifier missing -> 400 invalid_grant', async () => {
    const c = await obtainCode(admin, client)
    expectOAuthError(await redeem(h.app, client, c, { code_verifier: undefined }), 400, 'invalid_grant')
    expectOAuthError(await redeem(h.app, client, c, { code_verifier: '' }), 400, ['invalid_grant', 'invalid_request'])
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
  })

  it('C.30 wrong code_verifier -> 400 invalid_grant', async () => {
    const c = await obtainCode(admin, client)
    expectOAuthError(await redeem(h.app, client, c, { code_verifier: pkce().verifier }), 400, 'invalid_grant')
    // The challenge itself (a "plain" downgrade attempt) is not the verifier either.
    const p = pkce()
    const d = await obtainCode(admin, client, {}, p)
    expectOAuthError(await redeem(h.app, client, d, { code_verifier: p.challenge }), 400, 'invalid_grant')
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
  })

  it('C.31 malformed code_verifier (42 chars, 129 chars, illegal characters) -> 400 invalid_request / invalid_grant', async () => {
    const c = await obtainCode(admin, client)
    const v = c.verifier
    for (const bad of [v.slice(0, 42), 'a'.repeat(129), v.slice(0, 42) + '!', v.slice(0, 42) + ' ', v.slice(0, 42) + '+', v.slice(0, 42) + '/', v.slice(0, 42) + 'é', v.slice(0, 42) + '%']) {
      expectOAuthError(await redeem(h.app, client, c, { code_verifier: bad }), 400, ['invalid_request', 'invalid_grant'])
    }
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
  })

  it('C.32 code reuse -> 400 invalid_grant and the first redemption\'s tokens are revoked', async () => {
    const c = await obtainCode(admin, client)
    const first = await redeem(h.app, client, c)
    expect(first.statusCode).toBe(200)
    const t = body<Tokens>(first)
    await expectTokenWorks(h, t.access_token)
    h.clock.advance(1)
    // A replay with a wrong verifier or by another client must not revoke (OAuth 2.1 §7.5.2: DoS).
    expectOAuthError(await redeem(h.app, client, c, { code_verifier: pkce().verifier }), 400, 'invalid_grant')
    const other = await confidentialClient(h.app, admin.orgId)
    expectOAuthError(await redeem(h.app, other, c), 400, 'invalid_grant')
    await expectTokenWorks(h, t.access_token)
    // The rightful replay: denied, and everything from the first redemption dies.
    const second = await redeem(h.app, client, c)
    expectOAuthError(second, 400, 'invalid_grant')
    await expectTokenDead(h, t.access_token)
    const refreshed = await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t.refresh_token }, auth(client))
    expectOAuthError(refreshed, 400, 'invalid_grant')
    expect(await countRows(h.app, 'oauth_tokens')).toBe(2) // nothing new was issued
  })

  it('C.32 a replay 30 s later also revokes tokens obtained since by refreshing the first redemption\'s grant', async () => {
    const c = await obtainCode(admin, client)
    const first = body<Tokens>(await redeem(h.app, client, c))
    h.clock.advance(30)
    const rotated = await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: first.refresh_token }, auth(client))
    expect(rotated.statusCode).toBe(200)
    const t2 = body<Tokens>(rotated)
    await expectTokenWorks(h, t2.access_token)
    expectOAuthError(await redeem(h.app, client, c), 400, 'invalid_grant')
    await expectTokenDead(h, t2.access_token)
    expectOAuthError(await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t2.refresh_token }, auth(client)), 400, 'invalid_grant')
    // A grant from another code is untouched.
    const other = await obtainTokens(h.app, admin, client)
    await expectTokenWorks(h, other.access_token)
  })

  it('C.32 concurrent double redemption issues tokens once', async () => {
    const c = await obtainCode(admin, client)
    const [a, b] = await Promise.all([redeem(h.app, client, c), redeem(h.app, client, c)])
    const codes = [a.statusCode, b.statusCode].sort()
    expect(codes).toEqual([200, 400])
  })

  it('C.33 code used after its 60 s TTL -> 400 invalid_grant; just before it works', async () => {
    const c = await obtainCode(admin, client)
    const early = await obtainCode(admin, client)
    h.clock.advance(59)
    expect((await redeem(h.app, client, early)).statusCode).toBe(200)
    h.clock.advance(2) // 61 s after issue
    expectOAuthError(await redeem(h.app, client, c), 400, 'invalid_grant')
    expect(await countRows(h.app, 'oauth_tokens')).toBe(2) // only the early pair
  })

  it('C.34 unsupported grant types -> 400 unsupported_grant_type', async () => {
    for (const gt of ['password', 'client_credentials', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:ietf:params:oauth:grant-type:jwt-bearer', 'AUTHORIZATION_CODE']) {
      const res = await tokenRequest(h.app, { grant_type: gt, username: admin.email, password: admin.password, scope: 'crm:read' }, auth(client))
      expectOAuthError(res, 400, 'unsupported_grant_type')
    }
    expectOAuthError(await tokenRequest(h.app, { code: 'x' }, auth(client)), 400, 'invalid_request') // grant_type missing
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
    // refresh_token is supported (C.34 names it only "if unsupported"), see the rotation tests below.
  })

  it('C.35 resource at the token endpoint different from the authorize value -> 400 invalid_target', async () => {
    const c = await obtainCode(admin, client, { resource: API_RESOURCE })
    for (const r of [MCP_RESOURCE, 'https://evil.example.test', '/mcp', `${API_RESOURCE}#x`]) {
      expectOAuthError(await redeem(h.app, client, c, { resource: r }), 400, 'invalid_target')
    }
    const m = await obtainCode(admin, client, { resource: MCP_RESOURCE })
    expectOAuthError(await redeem(h.app, client, m, { resource: API_RESOURCE }), 400, 'invalid_target')
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
    // The trailing-slash form of the same origin is the same resource (checklist D.4).
    expect((await redeem(h.app, client, c, { resource: `${API_RESOURCE}/` })).statusCode).toBe(200)
  })

  it('C.36 more than 10 failed client authentications per client -> 429 with Retry-After, bodies never echo secrets', async () => {
    const c = await obtainCode(admin, client)
    const grant = { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri }
    const secrets: string[] = []
    for (let i = 0; i < 10; i++) {
      const guess = `crm_cs_guess${i}_${'Z'.repeat(40)}`
      secrets.push(guess)
      // spread over addresses, so the per-client limit is what trips
      const res = await tokenRequest(h.app, { ...grant, client_id: client.client_id, client_secret: guess }, { remoteAddress: `10.0.0.${i + 1}` })
      expectOAuthError(res, 401, 'invalid_client')
      expect(res.body).not.toContain(guess)
      expect(res.body).not.toContain('guess')
    }
    const limited = await tokenRequest(h.app, { ...grant, client_id: client.client_id, client_secret: 'crm_cs_guess_last' }, { remoteAddress: '10.0.1.1' })
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(oauthError(limited).error).toMatch(/^(slow_down|temporarily_unavailable|invalid_client)$/)
    expect(limited.body).not.toContain('guess_last')
    // Even the right secret is refused while the client is locked out...
    const right = await tokenRequest(h.app, grant, { ...auth(client), remoteAddress: '10.0.2.1' })
    expect(right.statusCode).toBe(429)
    expect(right.body).not.toContain(client.client_secret)
    expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
    // ...and works again once the window has passed.
    h.clock.advance(301)
    const d = await obtainCode(admin, client)
    expect((await redeem(h.app, client, d)).statusCode).toBe(200)
  })

  it('C.36 more than 10 failed client authentications from one address -> 429 for every client from it', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await tokenRequest(h.app, { grant_type: 'authorization_code', code: 'x', code_verifier: pkce().verifier, client_id: `crm_guess${i}`, client_secret: `crm_cs_secret${i}` }, { remoteAddress: '192.0.2.7' })
      expectOAuthError(res, 401, 'invalid_client')
      expect(res.body).not.toContain(`crm_cs_secret${i}`)
    }
    const c = await obtainCode(admin, client)
    const fromAttacker = await redeem(h.app, client, c).then(() => null) // from 127.0.0.1: unaffected
    expect(fromAttacker).toBeNull()
    const d = await obtainCode(admin, client)
    const blocked = await tokenRequest(h.app, { grant_type: 'authorization_code', code: d.code, code_verifier: d.verifier, redirect_uri: d.redirectUri }, { ...auth(client), remoteAddress: '192.0.2.7' })
    expect(blocked.statusCode).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    expect(blocked.body).not.toContain(client.client_secret)
    const elsewhere = await tokenRequest(h.app, { grant_type: 'authorization_code', code: d.code, code_verifier: d.verifier, redirect_uri: d.redirectUri }, { ...auth(client), remoteAddress: '192.0.2.8' })
    expect(elsewhere.statusCode).toBe(200)
  })

  it('(B) error bodies never echo the presented secret, code or verifier', async () => {
    const c = await obtainCode(admin, client)
    const secret = 'crm_cs_SUPERSECRETVALUE_' + 'q'.repeat(30)
    const r1 = await tokenRequest(h.app, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri, client_id: client.client_id, client_secret: secret })
    expect(r1.body).not.toContain('SUPERSECRETVALUE')
    const r2 = await redeem(h.app, client, c, { code_verifier: 'V'.repeat(43) + 'SECRETVERIFIER' })
    expect(r2.body).not.toContain('SECRETVERIFIER')
    const r3 = await redeem(h.app, client, { ...c, code: 'CODESECRET' + 'x'.repeat(30) })
    expect(r3.body).not.toContain('CODESECRET')
    const r4 = await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: 'crm_rt_REFRESHSECRET' }, auth(client))
    expect(r4.body).not.toContain('REFRESHSECRET')
  })

  describe('refresh tokens', () => {
    it('rotate on each use: the new pair works, the old access token keeps its hour, scope may narrow', async () => {
      const t1 = await obtainTokens(h.app, admin, client)
      h.clock.advance(10)
      const r = await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t1.refresh_token }, auth(client))
      expect(r.statusCode).toBe(200)
      expect(r.headers['cache-control']).toBe('no-store')
      const t2 = body<Tokens>(r)
      expect(t2.refresh_token).not.toBe(t1.refresh_token)
      expect(t2.access_token).not.toBe(t1.access_token)
      expect(t2.expires_in).toBe(3600)
      expect(t2.scope).toBe(t1.scope)
      await expectTokenWorks(h, t2.access_token)
      // narrowing with client_secret_post
      const narrow = await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t2.refresh_token, scope: 'crm:read', client_id: client.client_id, client_secret: client.client_secret })
      expect(narrow.statusCode).toBe(200)
      const t3 = body<Tokens>(narrow)
      expect(t3.scope).toBe('crm:read')
      expect((await api(h.app, t3.access_token, { method: 'POST', url: '/api/v1/accounts', payload: { name: 'x' } })).statusCode).toBe(403)
    })

    it('reusing a rotated refresh token -> invalid_grant, and the grant\'s current tokens are revoked', async () => {
      const t1 = await obtainTokens(h.app, admin, client)
      const t2 = body<Tokens>(await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t1.refresh_token }, auth(client)))
      await expectTokenWorks(h, t2.access_token)
      const reuse = await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t1.refresh_token }, auth(client))
      expectOAuthError(reuse, 400, 'invalid_grant')
      await expectTokenDead(h, t2.access_token)
      await expectTokenDead(h, t1.access_token)
      expectOAuthError(await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t2.refresh_token }, auth(client)), 400, 'invalid_grant')
    })

    it('are bound to their client, scope and resource, and need client authentication', async () => {
      const t = await obtainTokens(h.app, admin, client, { scope: 'crm:read' })
      const other = await confidentialClient(h.app, admin.orgId)
      expectOAuthError(await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t.refresh_token }, auth(other)), 400, 'invalid_grant')
      expectOAuthError(await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t.refresh_token, scope: 'crm:read crm:write' }, auth(client)), 400, 'invalid_scope')
      expectOAuthError(await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t.refresh_token, resource: MCP_RESOURCE }, auth(client)), 400, 'invalid_target')
      expectOAuthError(await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: client.client_id }), 401, 'invalid_client')
      expectOAuthError(await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t.access_token }, auth(client)), 400, 'invalid_grant')
      expectOAuthError(await tokenRequest(h.app, { grant_type: 'refresh_token' }, auth(client)), 400, 'invalid_request')
      // none of those burnt it
      expect((await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t.refresh_token, resource: `${API_RESOURCE}/` }, auth(client))).statusCode).toBe(200)
    })

    it('a refresh token is not an access token at the resource server', async () => {
      const t = await obtainTokens(h.app, admin, client)
      await expectTokenDead(h, t.refresh_token)
    })
  })

  describe('dynamic registration (RFC 7591)', () => {
    async function register(payload: Record<string, unknown>) {
      return h.app.inject({ method: 'POST', url: '/api/oauth/register', payload })
    }

    it('a public client (none) completes authorize + token with PKCE and no secret, with rotation', async () => {
      const reg = await register({ client_name: 'Claude', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' })
      expect(reg.statusCode).toBe(201)
      const pub = body(reg)
      expect(pub.client_id).toMatch(/^crm_/)
      expect(pub.client_secret).toBeUndefined()
      expect(pub.token_endpoint_auth_method).toBe('none')
      const page = await admin.request({ url: `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: pub.client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' })}` })
      expect(page.statusCode).toBe(200)
      expect(page.body).toContain('unverified')
      const c = await obtainCode(admin, pub)
      const res = await tokenRequest(h.app, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri, client_id: pub.client_id, resource: API_RESOURCE })
      expect(res.statusCode).toBe(200)
      const t = body<Tokens>(res)
      await expectTokenWorks(h, t.access_token)
      // PKCE is its only proof: a wrong verifier fails
      const d = await obtainCode(admin, pub)
      expectOAuthError(await tokenRequest(h.app, { grant_type: 'authorization_code', code: d.code, code_verifier: pkce().verifier, redirect_uri: d.redirectUri, client_id: pub.client_id }), 400, 'invalid_grant')
      // a public client may not present a secret
      expectOAuthError(await tokenRequest(h.app, { grant_type: 'authorization_code', code: d.code, code_verifier: d.verifier, redirect_uri: d.redirectUri, client_id: pub.client_id, client_secret: 'crm_cs_x' }), 401, 'invalid_client')
      // rotation with reuse detection for the public client
      const r = await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: pub.client_id })
      expect(r.statusCode).toBe(200)
      const t2 = body<Tokens>(r)
      expectOAuthError(await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: pub.client_id }), 400, 'invalid_grant')
      await expectTokenDead(h, t2.access_token)
      // it shows in the organization's Settings -> API, marked as self-registered
      const list = body(await admin.request({ url: '/api/v1/settings/api-clients' })).data
      expect(list.find((x: any) => x.client_id === pub.client_id)?.registration).toBe('dynamic')
    })

    it('a confidential client gets a crm_cs_ secret that authenticates it', async () => {
      const reg = await register({ client_name: 'Server app', redirect_uris: [REDIRECT] })
      expect(reg.statusCode).toBe(201)
      expect(reg.headers['cache-control']).toBe('no-store')
      const conf = body(reg)
      expect(conf.client_secret).toMatch(/^crm_cs_[A-Za-z0-9_-]{43,}$/)
      expect(conf.token_endpoint_auth_method).toBe('client_secret_basic')
      const c = await obtainCode(admin, conf)
      // without its secret it cannot redeem
      expectOAuthError(await tokenRequest(h.app, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri, client_id: conf.client_id }), 401, 'invalid_client')
      const res = await redeem(h.app, conf, c)
      expect(res.statusCode).toBe(200)
      await expectTokenWorks(h, body(res).access_token)
    })
  })
})
