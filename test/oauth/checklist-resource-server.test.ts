/**
 * oauth-checklist.md C.37-C.41 with the REST API as the resource server (the /mcp endpoint is not
 * built yet, so C.42 and /mcp-specific requests are out of scope here), plus access token expiry
 * and the audience restriction of /mcp tokens (RFC 8707, RFC 9700 §2.3).
 */
import { describe, expect, it } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { targets } from '../helpers/databases.ts'
import { addMember, createOrgWithAdmin, type Member } from '../helpers/build-app.ts'
import { api, body, confidentialClient, MCP_RESOURCE, obtainCode, obtainTokens, PRM_URL, redeem, tokenRequest, type OAuthHarness, type TestClient, oauthHarnessPerFile } from './helpers.ts'

/** Parses `Bearer k="v", k2="v2"` into its parameters. */
function challenge(res: LightMyRequestResponse): { scheme: string; params: Record<string, string> } {
  const header = String(res.headers['www-authenticate'] ?? '')
  const [scheme, ...rest] = header.split(' ')
  const params: Record<string, string> = {}
  for (const m of rest.join(' ').matchAll(/([a-z_]+)="([^"]*)"/g)) params[m[1]] = m[2]
  return { scheme, params }
}

function expectInvalidToken(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(401)
  const c = challenge(res)
  expect(c.scheme).toBe('Bearer')
  expect(c.params.error).toBe('invalid_token')
  expect(c.params.resource_metadata).toBe(PRM_URL)
  expect(body(res).code).toBe('invalid_token')
  expect(res.body).not.toContain('"data"')
}

describe.each(await targets())('OAuth checklist C.37-41 (REST API as resource server) on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  oauthHarnessPerFile(target, (harness, a, c) => {
    h = harness
    admin = a
    client = c
  })

  it('C.37 no Authorization -> 401 with resource_metadata and no error, CORS-exposed', async () => {
    for (const url of ['/api/v1/accounts', '/api/v1/products', '/api/v1/me']) {
      const res = await h.app.inject({ url, headers: { origin: 'https://claude.example' } })
      expect(res.statusCode, url).toBe(401)
      const c = challenge(res)
      expect(c.scheme).toBe('Bearer')
      expect(c.params.resource_metadata).toBe(PRM_URL)
      expect(c.params.error).toBeUndefined()
      expect(String(res.headers['www-authenticate'])).not.toContain('error=')
      expect(res.headers['access-control-allow-origin']).toBe('*')
      expect(String(res.headers['access-control-expose-headers']).toLowerCase()).toContain('www-authenticate')
    }
    const post = await h.app.inject({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'x' } })
    expect(post.statusCode).toBe(401)
    expect(challenge(post).params.error).toBeUndefined()
  })

  it('C.38 unknown, revoked, expired and other-resource tokens -> 401 invalid_token', async () => {
    // unknown (well-formed and prefixed, and not prefixed)
    expectInvalidToken(await api(h.app, 'crm_at_' + 'A'.repeat(43)))
    expectInvalidToken(await api(h.app, 'not-a-token'))
    // revoked through RFC 7009
    const t = await obtainTokens(h.app, admin, client)
    expect((await api(h.app, t.access_token)).statusCode).toBe(200)
    const rev = await tokenRequestTo('/api/oauth/revoke', { token: t.access_token }, client)
    expect(rev.statusCode).toBe(200)
    expectInvalidToken(await api(h.app, t.access_token))
    // refresh token revocation kills the grant's access token
    const t2 = await obtainTokens(h.app, admin, client)
    expect((await tokenRequestTo('/api/oauth/revoke', { token: t2.refresh_token }, client)).statusCode).toBe(200)
    expectInvalidToken(await api(h.app, t2.access_token))
    // a token for /mcp only is refused by the REST API (audience restriction)
    const mcp = await obtainTokens(h.app, admin, client, { resource: MCP_RESOURCE })
    expectInvalidToken(await api(h.app, mcp.access_token))
    expectInvalidToken(await api(h.app, mcp.access_token, { method: 'POST', url: '/api/v1/accounts', payload: { name: 'x' } }))
    // a refresh token is not an access token
    expectInvalidToken(await api(h.app, t2.refresh_token))
    // a person removed from the organization: their tokens stop working
    const member = await addMember(h.app, admin.orgId)
    const mt = await obtainTokens(h.app, member, client)
    expect((await api(h.app, mt.access_token)).statusCode).toBe(200)
    await h.app.db.deleteFrom('memberships').where('user_id', '=', member.userId).execute()
    expectInvalidToken(await api(h.app, mt.access_token))
  })

  async function tokenRequestTo(url: string, form: Record<string, string>, c: TestClient) {
    return h.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic ' + Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64') }, payload: new URLSearchParams(form).toString() })
  }

  it('C.38 access tokens expire after 3600 s (ManualClock)', async () => {
    const t = await obtainTokens(h.app, admin, client)
    h.clock.advance(3599)
    expect((await api(h.app, t.access_token)).statusCode).toBe(200)
    h.clock.advance(1)
    expectInvalidToken(await api(h.app, t.access_token))
    // The refresh token still yields a fresh one.
    const r = await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t.refresh_token }, { auth: { id: client.client_id, secret: client.client_secret } })
    expect(r.statusCode).toBe(200)
    expect((await api(h.app, body(r).access_token)).statusCode).toBe(200)
  })

  it('C.39 tokens in the query string are never accepted; the scheme name is case-insensitive', async () => {
    const t = await obtainTokens(h.app, admin, client)
    const inQuery = await h.app.inject({ url: `/api/v1/accounts?access_token=${t.access_token}` })
    expect(inQuery.statusCode).toBe(401)
    expect(inQuery.body).not.toContain('"data"')
    const inForm = await h.app.inject({ method: 'POST', url: '/api/v1/accounts', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `access_token=${t.access_token}&name=x` })
    expect([400, 401, 415]).toContain(inForm.statusCode)
    expect(inForm.statusCode).not.toBe(201)
    for (const scheme of ['bearer', 'BEARER', 'Bearer', 'bEaReR']) {
      expect((await api(h.app, t.access_token, {}, scheme)).statusCode, scheme).toBe(200)
    }
    // Other schemes or a malformed header are refused.
    for (const header of [`Basic ${t.access_token}`, `Token ${t.access_token}`, `Bearer`, `Bearer  `, `Bearer ${t.access_token} extra`, t.access_token]) {
      const res = await h.app.inject({ url: '/api/v1/accounts', headers: { authorization: header } })
      expect([400, 401], header).toContain(res.statusCode)
    }
  })

  it('C.40 a crm:read token on a write -> 403 insufficient_scope with scope = granted ∪ needed', async () => {
    const t = await obtainTokens(h.app, admin, client, { scope: 'crm:read' })
    expect((await api(h.app, t.access_token)).statusCode).toBe(200)
    const write = await api(h.app, t.access_token, { method: 'POST', url: '/api/v1/accounts', payload: { name: 'x' } })
    expect(write.statusCode).toBe(403)
    const c = challenge(write)
    expect(c.scheme).toBe('Bearer')
    expect(c.params.error).toBe('insufficient_scope')
    expect(c.params.scope.split(' ').sort()).toEqual(['crm:read', 'crm:write'])
    expect(body(write).code).toBe('insufficient_scope')
    // products need crm:read and erp:read
    const products = await api(h.app, t.access_token, { url: '/api/v1/products' })
    expect(products.statusCode).toBe(403)
    expect(challenge(products).params.scope.split(' ').sort()).toEqual(['crm:read', 'erp:read'])
    // a write-only token cannot read
    const w = await obtainTokens(h.app, admin, client, { scope: 'crm:write' })
    expect((await api(h.app, w.access_token, { method: 'POST', url: '/api/v1/accounts', payload: { name: 'y' } })).statusCode).toBe(201)
    const read = await api(h.app, w.access_token)
    expect(read.statusCode).toBe(403)
    expect(challenge(read).params.scope.split(' ').sort()).toEqual(['crm:read', 'crm:write'])
    const both = await obtainTokens(h.app, admin, client, { scope: 'crm:read erp:read' })
    expect((await api(h.app, both.access_token, { url: '/api/v1/products' })).statusCode).toBe(200)
  })

  it('C.40 the 403 insufficient_scope challenge carries resource_metadata', async () => {
    const t = await obtainTokens(h.app, admin, client, { scope: 'crm:read' })
    const write = await api(h.app, t.access_token, { method: 'POST', url: '/api/v1/accounts', payload: { name: 'x' } })
    expect(write.statusCode).toBe(403)
    expect(challenge(write).params.resource_metadata).toBe(PRM_URL)
  })

  it('C.41 revoking the client in Settings -> API kills every token at once and its codes get invalid_client', async () => {
    const t1 = await obtainTokens(h.app, admin, client)
    const t2 = await obtainTokens(h.app, admin, client, { scope: 'crm:read' })
    const member = await addMember(h.app, admin.orgId)
    const t3 = await obtainTokens(h.app, member, client)
    const pending = await obtainCode(admin, client)
    const other = await confidentialClient(h.app, admin.orgId)
    const keep = await obtainTokens(h.app, admin, other)
    for (const t of [t1, t2, t3]) expect((await api(h.app, t.access_token)).statusCode).toBe(200)

    const del = await admin.request({ method: 'DELETE', url: `/api/v1/settings/api-clients/${client.client_id}` })
    expect(del.statusCode).toBe(204)
    for (const t of [t1, t2, t3]) expectInvalidToken(await api(h.app, t.access_token))
    // its outstanding code, and its refresh tokens
    const redeemed = await redeem(h.app, client, pending)
    expect(redeemed.statusCode).toBe(401)
    expect(body(redeemed).error).toBe('invalid_client')
    const refreshed = await tokenRequest(h.app, { grant_type: 'refresh_token', refresh_token: t1.refresh_token }, { auth: { id: client.client_id, secret: client.client_secret } })
    expect(refreshed.statusCode).toBe(401)
    expect(body(refreshed).error).toBe('invalid_client')
    // other clients are untouched; the list shows it revoked; a second revoke is 404
    expect((await api(h.app, keep.access_token)).statusCode).toBe(200)
    const list = body(await admin.request({ url: '/api/v1/settings/api-clients' })).data
    expect(list.find((c: any) => c.client_id === client.client_id).status).toBe('revoked')
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/settings/api-clients/${client.client_id}` })).statusCode).toBe(404)
  })

  it('C.41 revoking a self-registered client in one organization: its tokens and codes there stop, other organizations keep theirs', async () => {
    const reg = body(await h.app.inject({ method: 'POST', url: '/api/oauth/register', payload: { client_name: 'Host', redirect_uris: ['https://app.example.test/callback'] } }))
    const dyn: TestClient = { client_id: reg.client_id, client_secret: reg.client_secret, redirect_uris: reg.redirect_uris }
    const adminB = await createOrgWithAdmin(h.app, 'Other')
    const ta = await obtainTokens(h.app, admin, dyn)
    const tb = await obtainTokens(h.app, adminB, dyn)
    const pendingA = await obtainCode(admin, dyn)
    const pendingB = await obtainCode(adminB, dyn)
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/settings/api-clients/${dyn.client_id}` })).statusCode).toBe(204)
    expectInvalidToken(await api(h.app, ta.access_token))
    const codeA = await redeem(h.app, dyn, pendingA)
    expect(codeA.statusCode).toBe(401)
    expect(body(codeA).error).toBe('invalid_client')
    expect((await api(h.app, tb.access_token)).statusCode).toBe(200)
    expect((await redeem(h.app, dyn, pendingB)).statusCode).toBe(200)
    // and people of the revoking organization cannot authorize it again
    const again = await h.app.inject({
      method: 'POST',
      url: '/oauth/authorize',
      cookies: { cairn_session: admin.session },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ response_type: 'code', client_id: dyn.client_id, redirect_uri: 'https://app.example.test/callback', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', csrf_token: admin.csrf, org_id: admin.orgId, decision: 'allow' }).toString(),
    })
    expect(again.statusCode).toBe(303)
    expect(new URL(String(again.headers.location)).searchParams.get('code')).toBeNull()
    expect(new URL(String(again.headers.location)).searchParams.get('error')).toBe('access_denied')
  })
})
