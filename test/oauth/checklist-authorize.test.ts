/**
 * oauth-checklist.md C.6-C.22: the authorization endpoint. Cases 6-13 must never redirect (400 page,
 * no Location); cases 14-22 redirect to the verified redirect URI with `error`, the original `state`
 * and `iss`. Every failure also leaves no code behind.
 */
import { describe, expect, it } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { targets } from '../helpers/databases.ts'
import { type Member } from '../helpers/build-app.ts'
import { API_RESOURCE, authorizeParams, confidentialClient, countRows, getAuthorize, ISSUER, location, obtainCode, pkce, postConsent, REDIRECT, REDIRECT_2, redeem, type OAuthHarness, type TestClient, oauthHarnessPerFile } from './helpers.ts'

function expectErrorPage(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(400)
  expect(res.headers.location).toBeUndefined()
  expect(res.headers['content-type']).toMatch(/^text\/html/)
  expect(res.body).toContain('This authorization request cannot continue')
}

/** A 303 to the client's redirect URI carrying `error`, the original `state` and `iss`. */
function expectRedirectError(res: LightMyRequestResponse, error: string | string[], state: string | undefined, redirectUri = REDIRECT) {
  expect(res.statusCode).toBe(303)
  const loc = location(res)
  expect(`${loc.origin}${loc.pathname}`).toBe(redirectUri)
  expect([error].flat()).toContain(loc.searchParams.get('error'))
  expect(loc.searchParams.get('state')).toBe(state ?? null)
  expect(loc.searchParams.get('iss')).toBe(ISSUER)
  expect(loc.searchParams.get('code')).toBeNull()
}

describe.each(await targets())('OAuth checklist C.6-22 (authorization endpoint) on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  oauthHarnessPerFile(target, (harness, a, c) => {
    h = harness
    admin = a
    client = c
  })

  /** Both the consent page (GET) and the decision (POST) must refuse the same way. */
  async function bothMethods(params: Record<string, string | undefined>, extra: [string, string][] = []) {
    const get = await getAuthorize(h.app, admin, params, extra)
    const anon = await getAuthorize(h.app, null, params, extra)
    const postPayload = new URLSearchParams()
    for (const [k, v] of Object.entries({ ...params, csrf_token: admin.csrf, org_id: admin.orgId, decision: 'allow' })) if (v !== undefined) postPayload.append(k, v)
    for (const [k, v] of extra) postPayload.append(k, v)
    const post = await admin.request({ method: 'POST', url: '/oauth/authorize', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: postPayload.toString() })
    return { get, anon, post }
  }

  async function expectPageEverywhere(params: Record<string, string | undefined>, extra: [string, string][] = []) {
    const codesBefore = await countRows(h.app, 'oauth_codes')
    const { get, anon, post } = await bothMethods(params, extra)
    expectErrorPage(get)
    expectErrorPage(anon) // checked before sign-in: never a redirect, not even to the sign-in page
    expectErrorPage(post)
    expect(await countRows(h.app, 'oauth_codes')).toBe(codesBefore)
  }

  it('shows the consent page for a valid request, and sends anonymous users to sign in first', async () => {
    const p = pkce()
    const params = authorizeParams(client, p)
    const page = await getAuthorize(h.app, admin, params)
    expect(page.statusCode).toBe(200)
    expect(page.headers.location).toBeUndefined()
    expect(page.body).toContain('action="/oauth/authorize"')
    expect(page.body).toContain(`name="csrf_token" value="${admin.csrf}"`)
    expect(page.body).toContain(`name="org_id" value="${admin.orgId}"`)
    expect(page.body).toContain('value="allow"')
    expect(page.body).toContain('value="deny"')
    expect(page.headers['x-frame-options']).toBe('DENY')
    const anon = await getAuthorize(h.app, null, params)
    expect(anon.statusCode).toBe(303)
    const loc = location(anon)
    expect(loc.pathname).toBe('/sign-in')
    expect(loc.searchParams.get('return_to')).toMatch(/^\/oauth\/authorize\?/)
    expect(await countRows(h.app, 'oauth_codes')).toBe(0)
  })

  it('C.6 unknown client_id -> 400 page, no redirect', async () => {
    await expectPageEverywhere(authorizeParams({ client_id: 'crm_doesnotexist' }, pkce()))
    await expectPageEverywhere(authorizeParams({ client_id: '' }, pkce()))
    const { client_id: _, ...noClient } = authorizeParams(client, pkce())
    await expectPageEverywhere(noClient)
  })

  it('C.7 revoked client -> 400 page, no redirect', async () => {
    const del = await admin.request({ method: 'DELETE', url: `/api/v1/settings/api-clients/${client.client_id}` })
    expect(del.statusCode).toBe(204)
    await expectPageEverywhere(authorizeParams(client, pkce()))
  })

  it('C.8 unregistered redirect_uri on another host -> 400 page', async () => {
    for (const uri of ['https://evil.example.test/callback', 'https://app.example.test.evil.test/callback', 'https://evil.test/?https://app.example.test/callback']) {
      await expectPageEverywhere(authorizeParams(client, pkce(), { redirect_uri: uri }))
    }
  })

  it('C.9 redirect_uri differing by trailing slash, path suffix, case, scheme or query -> 400 page', async () => {
    const withQuery = await confidentialClient(h.app, admin.orgId, { redirectUris: ['https://app.example.test/cb?tenant=1'] })
    const variants = [
      'https://app.example.test/callback/',
      'https://app.example.test/callback/extra',
      'https://app.example.test/callbackx',
      'https://app.example.test/Callback',
      'https://APP.example.test/callback',
      'HTTPS://app.example.test/callback',
      'http://app.example.test/callback',
      'https://app.example.test:443/callback',
      'https://app.example.test:8443/callback',
      'https://app.example.test/callback?x=1',
      'https://app.example.test/callback?',
      'https://app.example.test/%63allback',
      'https://app.example.test/./callback',
    ]
    for (const uri of variants) await expectPageEverywhere(authorizeParams(client, pkce(), { redirect_uri: uri }))
    for (const uri of ['https://app.example.test/cb?tenant=2', 'https://app.example.test/cb?tenant=1&x=1', 'https://app.example.test/cb', 'https://app.example.test/cb?TENANT=1']) {
      await expectPageEverywhere(authorizeParams(withQuery, pkce(), { redirect_uri: uri }))
    }
    // The registered value with its own query still works, and keeps that query.
    const ok = await postConsent(admin, authorizeParams(withQuery, pkce(), { redirect_uri: 'https://app.example.test/cb?tenant=1' }))
    expect(ok.statusCode).toBe(303)
    expect(location(ok).searchParams.get('tenant')).toBe('1')
    expect(location(ok).searchParams.get('code')).toBeTruthy()
  })

  it('C.10 redirect_uri with a fragment -> 400 page', async () => {
    await expectPageEverywhere(authorizeParams(client, pkce(), { redirect_uri: `${REDIRECT}#frag` }))
    await expectPageEverywhere(authorizeParams(client, pkce(), { redirect_uri: `${REDIRECT}#` }))
  })

  it('C.11 redirect_uri omitted while the client registered several -> 400 page; with one registered it defaults', async () => {
    const two = await confidentialClient(h.app, admin.orgId, { redirectUris: [REDIRECT, REDIRECT_2] })
    await expectPageEverywhere(authorizeParams(two, pkce(), { redirect_uri: undefined }))
    // Sanity: the single-URI client may omit it.
    const one = await postConsent(admin, authorizeParams(client, pkce(), { redirect_uri: undefined }))
    expect(one.statusCode).toBe(303)
    expect(location(one).href.startsWith(REDIRECT + '?')).toBe(true)
  })

  it('C.12 duplicate client_id or redirect_uri -> 400 page', async () => {
    const other = await confidentialClient(h.app, admin.orgId)
    const base = authorizeParams(client, pkce())
    await expectPageEverywhere(base, [['client_id', client.client_id]])
    await expectPageEverywhere(base, [['client_id', other.client_id]])
    await expectPageEverywhere(base, [['redirect_uri', REDIRECT]])
    await expectPageEverywhere(base, [['redirect_uri', 'https://evil.example.test/cb']])
  })

  it('C.13 loopback redirect URIs match with any port, but not another path or host', async () => {
    const native = await confidentialClient(h.app, admin.orgId, { redirectUris: ['http://127.0.0.1/callback'] })
    const p = pkce()
    const params = authorizeParams(native, p, { redirect_uri: 'http://127.0.0.1:53123/callback' })
    const page = await getAuthorize(h.app, admin, params)
    expect(page.statusCode).toBe(200)
    const ok = await postConsent(admin, params)
    expect(ok.statusCode).toBe(303)
    const loc = location(ok)
    expect(`${loc.origin}${loc.pathname}`).toBe('http://127.0.0.1:53123/callback')
    const code = loc.searchParams.get('code')!
    // The token request repeats the same (ported) redirect URI.
    const tok = await redeem(h.app, native, { code, verifier: p.verifier, redirectUri: 'http://127.0.0.1:53123/callback', params, res: ok })
    expect(tok.statusCode).toBe(200)
    for (const uri of [
      'http://127.0.0.1:53123/other',
      'http://127.0.0.1:53123/callback/',
      'http://127.0.0.1:53123/callback?x=1',
      'http://localhost:53123/callback',
      'http://127.0.0.2:53123/callback',
      'http://[::1]:53123/callback',
      'https://127.0.0.1:53123/callback',
      'http://evil@127.0.0.1:53123/callback',
      'http://127.0.0.1.evil.test:53123/callback',
    ]) {
      await expectPageEverywhere(authorizeParams(native, pkce(), { redirect_uri: uri }))
    }
  })

  it('C.14 response_type missing -> redirect with invalid_request or unsupported_response_type', async () => {
    const params = authorizeParams(client, pkce(), { response_type: undefined })
    const { get, post } = await bothMethods(params)
    expectRedirectError(get, ['invalid_request', 'unsupported_response_type'], params.state)
    expectRedirectError(post, ['invalid_request', 'unsupported_response_type'], params.state)
    expect(await countRows(h.app, 'oauth_codes')).toBe(0)
  })

  it('C.15 response_type=token or "code id_token" -> unsupported_response_type', async () => {
    for (const rt of ['token', 'code id_token', 'id_token', 'code token', 'CODE']) {
      const params = authorizeParams(client, pkce(), { response_type: rt })
      const { get, post } = await bothMethods(params)
      expectRedirectError(get, 'unsupported_response_type', params.state)
      expectRedirectError(post, 'unsupported_response_type', params.state)
    }
    expect(await countRows(h.app, 'oauth_codes')).toBe(0)
  })

  it('C.16 code_challenge missing -> invalid_request', async () => {
    const params = authorizeParams(client, pkce(), { code_challenge: undefined })
    const { get, post } = await bothMethods(params)
    expectRedirectError(get, 'invalid_request', params.state)
    expectRedirectError(post, 'invalid_request', params.state)
    const noMethodEither = authorizeParams(client, pkce(), { code_challenge: undefined, code_challenge_method: undefined })
    expectRedirectError((await bothMethods(noMethodEither)).post, 'invalid_request', noMethodEither.state)
    expect(await countRows(h.app, 'oauth_codes')).toBe(0)
  })

  it('C.17 code_challenge_method=plain or omitted -> invalid_request', async () => {
    for (const method of ['plain', undefined, 's256', 'S512', '']) {
      const params = authorizeParams(client, pkce(), { code_challenge_method: method })
      const { get, post } = await bothMethods(params)
      expectRedirectError(get, 'invalid_request', params.state)
      expectRedirectError(post, 'invalid_request', params.state)
    }
    // plain with a verifier-shaped challenge as well
    const p = pkce()
    const plain = authorizeParams(client, p, { code_challenge: p.verifier, code_challenge_method: 'plain' })
    expectRedirectError((await bothMethods(plain)).post, 'invalid_request', plain.state)
    expect(await countRows(h.app, 'oauth_codes')).toBe(0)
  })

  it('C.18 malformed code_challenge -> invalid_request', async () => {
    const good = pkce().challenge
    for (const challenge of [good.slice(0, 42), good + 'A', good.slice(0, 42) + '=', good.slice(0, 42) + '+', good.slice(0, 42) + '/', 'a'.repeat(128), ' '.repeat(43), good.slice(0, 42) + '\u00e9']) {
      const params = authorizeParams(client, pkce(), { code_challenge: challenge })
      const { get, post } = await bothMethods(params)
      expectRedirectError(get, 'invalid_request', params.state)
      expectRedirectError(post, 'invalid_request', params.state)
    }
    expect(await countRows(h.app, 'oauth_codes')).toBe(0)
  })

  it('C.19 unknown scope, or one not allowed for this client -> invalid_scope', async () => {
    const readOnly = await confidentialClient(h.app, admin.orgId, { scopes: ['crm:read'] })
    const cases: [TestClient, string][] = [
      [client, 'crm:admin'],
      [client, 'crm:read openid'],
      [client, 'CRM:READ'],
      [readOnly, 'crm:write'],
      [readOnly, 'crm:read erp:read'],
    ]
    for (const [c, scope] of cases) {
      const params = authorizeParams(c, pkce(), { scope })
      const { get, post } = await bothMethods(params)
      expectRedirectError(get, 'invalid_scope', params.state)
      expectRedirectError(post, 'invalid_scope', params.state)
    }
    expect(await countRows(h.app, 'oauth_codes')).toBe(0)
  })

  it('C.20 resource relative, with a fragment, or not ours -> invalid_target', async () => {
    for (const resource of ['/mcp', 'mcp', `${ISSUER}/mcp#x`, `${ISSUER}#x`, 'https://evil.example.test', 'http://localhost:3001', `${ISSUER}/api`, `${ISSUER}/mcp/extra`, `${ISSUER}?x=1`, 'https://localhost:3000']) {
      const params = authorizeParams(client, pkce(), { resource })
      const { get, post } = await bothMethods(params)
      expectRedirectError(get, 'invalid_target', params.state)
      expectRedirectError(post, 'invalid_target', params.state)
    }
    expect(await countRows(h.app, 'oauth_codes')).toBe(0)
    // The bare origin with the trailing slash new URL().href adds is ours (checklist D.4).
    const slash = await postConsent(admin, authorizeParams(client, pkce(), { resource: `${API_RESOURCE}/` }))
    expect(location(slash).searchParams.get('code')).toBeTruthy()
  })

  it('(B, RFC 9700 §4.11.2) never redirects an error to the client before the user is signed in', async () => {
    // A self-registered client could otherwise bounce anyone to its (registered) phishing page with a bad request.
    for (const overrides of [{ scope: 'nope' }, { response_type: 'token' }, { code_challenge: undefined }, { resource: 'https://evil.test' }]) {
      const params = authorizeParams(client, pkce(), overrides)
      const anon = await getAuthorize(h.app, null, params)
      expect(anon.statusCode).toBe(303)
      const loc = location(anon)
      expect(loc.origin).toBe(ISSUER)
      expect(loc.pathname).toBe('/sign-in')
    }
  })

  it('C.21 user denies consent -> access_denied with state, and no code', async () => {
    const params = authorizeParams(client, pkce())
    const res = await postConsent(admin, params, 'deny')
    expectRedirectError(res, 'access_denied', params.state)
    expect(await countRows(h.app, 'oauth_codes')).toBe(0)
    // Anything but an explicit allow is a denial.
    const noDecision = await postConsent(admin, params, 'allow', { decision: undefined })
    expectRedirectError(noDecision, 'access_denied', params.state)
    expect(await countRows(h.app, 'oauth_codes')).toBe(0)
  })

  it('refuses a consent POST without the session CSRF token (no redirect, no code)', async () => {
    const params = authorizeParams(client, pkce())
    for (const csrf of [undefined, 'wrong', '']) {
      const res = await postConsent(admin, params, 'allow', { csrf_token: csrf })
      expect(res.statusCode).toBe(403)
      expect(res.headers.location).toBeUndefined()
    }
    expect(await countRows(h.app, 'oauth_codes')).toBe(0)
  })

  it('C.22 ignores unknown parameters, accepts reversed scope order, no state, and echoes a long state verbatim', async () => {
    // unknown parameter
    const unknown = authorizeParams(client, pkce())
    expect((await getAuthorize(h.app, admin, unknown, [['foo', 'bar'], ['prompt', 'consent']])).statusCode).toBe(200)
    const r1 = await postConsent(admin, unknown, 'allow', { foo: 'bar', nonce: 'n' })
    expect(location(r1).searchParams.get('code')).toBeTruthy()
    expect(location(r1).searchParams.get('state')).toBe(unknown.state)
    expect(location(r1).searchParams.get('iss')).toBe(ISSUER)
    expect(location(r1).searchParams.get('foo')).toBeNull()
    // reversed scope order
    const reversed = await obtainCode(admin, client, { scope: 'crm:write crm:read' })
    const tok = await redeem(h.app, client, reversed)
    expect(tok.statusCode).toBe(200)
    expect(new Set(JSON.parse(tok.body).scope.split(' '))).toEqual(new Set(['crm:read', 'crm:write']))
    // no state
    const noState = authorizeParams(client, pkce(), { state: undefined })
    expect((await getAuthorize(h.app, admin, noState)).statusCode).toBe(200)
    const r2 = await postConsent(admin, noState)
    expect(location(r2).searchParams.get('code')).toBeTruthy()
    expect(location(r2).searchParams.has('state')).toBe(false)
    // long state with characters that need encoding
    const longState = 'x'.repeat(900) + ' +/=&?#%é"<>\'' + 'y'.repeat(900)
    const long = authorizeParams(client, pkce(), { state: longState })
    const page = await getAuthorize(h.app, admin, long)
    expect(page.statusCode).toBe(200)
    const r3 = await postConsent(admin, long)
    expect(r3.statusCode).toBe(303)
    expect(location(r3).searchParams.get('state')).toBe(longState)
    // the consent page's hidden state round-trips too (HTML-escaped, not altered)
    expect(page.body).toContain('&lt;&gt;')
  })

  it('returns code, state and iss on success and keeps the code single-row and bound', async () => {
    const c = await obtainCode(admin, client)
    const loc = location(c.res)
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT)
    expect(loc.searchParams.get('state')).toBe(c.params.state)
    expect(loc.searchParams.get('iss')).toBe(ISSUER)
    expect(c.res.headers['cache-control']).toBe('no-store')
    expect(await countRows(h.app, 'oauth_codes')).toBe(1)
  })
})
