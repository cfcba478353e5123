/**
 * The whole OAuth flow with oauth4webapi, a strict independent client library, against a real
 * listening service: discovery, authorization with sign-in and consent (plain HTTP here; the
 * browser variant is in flow-browser.test.ts), code exchange with PKCE, API calls, refresh with
 * rotation, introspection and revocation.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as oauth from 'oauth4webapi'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'
import { startLiveService, signIn, consent, type LiveService } from '../helpers/live-service.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { createOrgClient } from '../../src/oauth/index.ts'

const insecure = { [oauth.allowInsecureRequests]: true }

describe.each(await targets())('OAuth flow with oauth4webapi on %s', (target) => {
  let tdb: TestDatabase
  let svc: LiveService
  let orgId: string
  const email = 'ada@example.test'
  const password = 'analytical engine'

  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    svc = await startLiveService(tdb.database)
  })
  afterAll(async () => {
    await svc?.close()
    await tdb?.drop()
  })
  beforeEach(async () => {
    await tdb.reset()
    orgId = (await createOrganizationWithAdmin(svc.app.db, { name: 'Analytical', adminEmail: email, adminPassword: password })).orgId
  })

  async function discover() {
    const issuer = new URL(svc.url)
    return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }))
  }

  it.each(['client_secret_post', 'client_secret_basic'] as const)('completes code + PKCE with %s, then refresh, introspection and revocation', async (method) => {
    const as = await discover()
    expect(as.issuer).toBe(svc.url)
    expect(as.code_challenge_methods_supported).toEqual(['S256'])
    const redirectUri = 'https://app.example.test/callback'
    const created = await createOrgClient(svc.app.db, orgId, { name: 'Example App', redirectUris: [redirectUri], scopes: ['crm:read', 'crm:write', 'erp:read'] }, 'settings')
    const client: oauth.Client = { client_id: created.client_id }
    const auth = method === 'client_secret_post' ? oauth.ClientSecretPost(created.client_secret) : oauth.ClientSecretBasic(created.client_secret)

    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const url = new URL(as.authorization_endpoint!)
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: 'crm:read crm:write',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString()
    const cookie = await signIn(svc.url, email, password)
    const callback = await consent(url.href, cookie)
    expect(callback.origin + callback.pathname).toBe(redirectUri)
    expect(callback.searchParams.get('state')).toBe(state)
    expect(callback.searchParams.get('iss')).toBe(svc.url)

    const params = oauth.validateAuthResponse(as, client, callback, state) // checks iss (RFC 9207) too
    const tokenResponse = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure)
    expect(tokenResponse.headers.get('cache-control')).toBe('no-store')
    expect(tokenResponse.headers.get('pragma')).toBe('no-cache')
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse)
    expect(tokens.token_type).toBe('bearer') // oauth4webapi lower-cases it
    expect(tokens.expires_in).toBe(3600)
    expect(tokens.scope).toBe('crm:read crm:write')
    expect(tokens.access_token).toMatch(/^crm_at_[A-Za-z0-9_-]{43}$/)
    expect(tokens.refresh_token).toMatch(/^crm_rt_[A-Za-z0-9_-]{43}$/)

    const api = (token: string, path: string, init: RequestInit = {}) => fetch(`${svc.url}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } })
    const created1 = await api(tokens.access_token, '/accounts', { method: 'POST', body: JSON.stringify({ name: 'Made with a token' }) })
    expect(created1.status).toBe(201) // no CSRF header needed with a bearer token
    const list = await (await api(tokens.access_token, '/accounts')).json()
    expect(list.data.map((a: any) => a.name)).toEqual(['Made with a token'])
    // Without erp:read, the catalog is off limits and opportunity amounts read as null.
    expect((await api(tokens.access_token, '/products')).status).toBe(403)
    const opp = await (await api(tokens.access_token, '/opportunities', { method: 'POST', body: JSON.stringify({ name: 'Deal', amount: '100.00' }) })).json()
    expect(opp.amount).toBeNull()
    const me = await (await api(tokens.access_token, '/me')).json()
    expect(me).toMatchObject({ organization: { id: orgId }, user: { email }, scopes: ['crm:read', 'crm:write'] })

    const introspected = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, auth, tokens.access_token, insecure))
    expect(introspected).toMatchObject({ active: true, client_id: client.client_id, scope: 'crm:read crm:write', aud: svc.url })

    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure))
    expect(refreshed.access_token).not.toBe(tokens.access_token)
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    expect((await api(refreshed.access_token, '/accounts')).status).toBe(200)
    // The rotated refresh token is spent: presenting it again revokes the whole grant.
    const reuse = await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure)
    expect(reuse.status).toBe(400)
    expect((await reuse.json()).error).toBe('invalid_grant')
    expect((await api(refreshed.access_token, '/accounts')).status).toBe(401)

    // A fresh grant, then RFC 7009 revocation of its access token.
    const url2 = new URL(url)
    const verifier2 = oauth.generateRandomCodeVerifier()
    url2.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier2))
    const cb2 = await consent(url2.href, cookie)
    const t2 = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, auth, oauth.validateAuthResponse(as, client, cb2, state), redirectUri, verifier2, insecure))
    expect((await api(t2.access_token, '/accounts')).status).toBe(200)
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, t2.access_token, insecure))
    const after = await api(t2.access_token, '/accounts')
    expect(after.status).toBe(401)
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  it('lets a person deny, and the client sees access_denied with its state', async () => {
    const as = await discover()
    const created = await createOrgClient(svc.app.db, orgId, { name: 'Nosy', redirectUris: ['https://nosy.example.test/cb'], scopes: ['crm:read'] }, 'settings')
    const client: oauth.Client = { client_id: created.client_id }
    const url = new URL(as.authorization_endpoint!)
    url.search = new URLSearchParams({ response_type: 'code', client_id: client.client_id, state: 'xyz', code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()), code_challenge_method: 'S256' }).toString()
    const callback = await consent(url.href, await signIn(svc.url, email, password), 'deny')
    expect(callback.searchParams.get('error')).toBe('access_denied')
    expect(callback.searchParams.get('state')).toBe('xyz')
    expect(callback.searchParams.get('code')).toBeNull()
    expect(() => oauth.validateAuthResponse(as, client, callback, 'xyz')).toThrow()
  })
})
