// The OAuth 2.0 web server flow's edges, as the platform answers them: consent page with Allow /
// Deny, PKCE (missing verifier -> invalid_grant, wrong one -> invalid_request), one-time codes,
// client and redirect checks, the token response fields, userinfo, revoke, and the sandbox login.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_ID, CLIENT_SECRET, REDIRECT, consent, start } from './helpers.ts'
import type { SourceSim } from '../../tools/source-sim/main.ts'

let sim: SourceSim
beforeAll(async () => {
  sim = await start({ redirectUris: ['https://crm.example.com/oauth/callback'] })
})
afterAll(() => sim?.close())

const authorizeUrl = (params: Record<string, string>, base = sim.url) =>
  `${base}/services/oauth2/authorize?${new URLSearchParams({ response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT, ...params })}`
const tokenCall = async (params: Record<string, string>, base = sim.url) => {
  const r = await fetch(`${base}/services/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) })
  return { status: r.status, body: await r.json() }
}
const codeFor = async (params: Record<string, string> = {}, base = sim.url) => (await consent(authorizeUrl({ state: 's1', ...params }, base))).get('code')!

describe('OAuth web server flow', () => {
  it('issues the platform token response; refresh grant omits refresh_token', async () => {
    const code = await codeFor({ scope: 'api refresh_token openid' })
    const t = await tokenCall({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uri: REDIRECT })
    expect(t.status).toBe(200)
    expect(Object.keys(t.body).sort()).toEqual(['access_token', 'id', 'id_token', 'instance_url', 'issued_at', 'refresh_token', 'scope', 'signature', 'token_type'])
    expect(t.body.access_token.startsWith(sim.production.orgId.slice(0, 15) + '!')).toBe(true)
    expect(t.body.id).toBe(`${sim.url}/id/${sim.production.orgId}/${sim.production.userId}`)
    expect(t.body.issued_at).toMatch(/^\d{13}$/)
    expect(t.body.token_type).toBe('Bearer')
    expect(t.body.signature).toBe(createHmacB64(CLIENT_SECRET, t.body.id + t.body.issued_at))
    const r = await tokenCall({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token, client_id: CLIENT_ID, client_secret: CLIENT_SECRET })
    expect(r.status).toBe(200)
    expect(r.body.refresh_token).toBeUndefined()
    expect(r.body.access_token).not.toBe(t.body.access_token)
    const info = await fetch(`${sim.url}/services/oauth2/userinfo`, { headers: { Authorization: `Bearer ${r.body.access_token}` } }).then((x) => x.json())
    expect(info).toMatchObject({ user_id: sim.production.userId, organization_id: sim.production.orgId })
    expect(info.urls.rest).toBe(`${sim.url}/services/data/v{version}/`)
  })

  it('no refresh_token without the refresh_token scope', async () => {
    const code = await codeFor({ scope: 'api' })
    const t = await tokenCall({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uri: REDIRECT })
    expect(t.body.refresh_token).toBeUndefined()
    expect(t.body.id_token).toBeUndefined()
  })

  it('PKCE: verifier required once a challenge was sent, and must match', async () => {
    const verifier = randomBytes(32).toString('base64url')
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    const base = { grant_type: 'authorization_code', client_id: CLIENT_ID, redirect_uri: REDIRECT }
    const missing = await tokenCall({ ...base, code: await codeFor({ code_challenge: challenge }) })
    expect(missing).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.any(String) } })
    const wrong = await tokenCall({ ...base, code: await codeFor({ code_challenge: challenge }), code_verifier: 'nope' })
    expect(wrong.body.error).toBe('invalid_request')
    const right = await tokenCall({ ...base, code: await codeFor({ code_challenge: challenge }), code_verifier: verifier })
    expect(right.status).toBe(200)
  })

  it('codes are single-use; client, secret, redirect and grant type are checked', async () => {
    const code = await codeFor()
    const base = { grant_type: 'authorization_code', client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uri: REDIRECT }
    expect((await tokenCall({ ...base, code })).status).toBe(200)
    expect((await tokenCall({ ...base, code })).body.error).toBe('invalid_grant')
    expect((await tokenCall({ ...base, code: await codeFor(), client_secret: 'wrong' })).body.error).toBe('invalid_client')
    expect((await tokenCall({ ...base, code: await codeFor(), client_id: 'other' })).body.error).toBe('invalid_client_id')
    expect((await tokenCall({ ...base, code: await codeFor(), redirect_uri: 'http://127.0.0.1:1/other' })).body.error).toBe('redirect_uri_mismatch')
    expect((await tokenCall({ ...base, grant_type: 'password' })).body.error).toBe('unsupported_grant_type')
  })

  it('consent page: Deny redirects with access_denied; unknown client and foreign redirect are refused', async () => {
    const denied = await consent(authorizeUrl({ state: 'd' }), 'deny')
    expect(denied.get('error')).toBe('access_denied')
    expect(denied.get('state')).toBe('d')
    expect((await fetch(authorizeUrl({ client_id: 'unknown' }))).status).toBe(400)
    expect((await fetch(authorizeUrl({ redirect_uri: 'https://evil.example.com/cb' }))).status).toBe(400)
    const configured = await consent(authorizeUrl({ redirect_uri: 'https://crm.example.com/oauth/callback', state: 'c' }))
    expect(configured.get('code')).toBeTruthy()
  })

  it('revoke ends the refresh token and the sessions issued from it', async () => {
    const code = await codeFor()
    const t = await tokenCall({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uri: REDIRECT })
    const rv = await fetch(`${sim.url}/services/oauth2/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: t.body.refresh_token }) })
    expect(rv.status).toBe(200)
    const after = await fetch(`${sim.url}/services/data/v62.0/limits`, { headers: { Authorization: `Bearer ${t.body.access_token}` } })
    expect(after.status).toBe(401)
    expect((await tokenCall({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token, client_id: CLIENT_ID, client_secret: CLIENT_SECRET })).body.error).toBe('invalid_grant')
  })

  it('access tokens expire after the configured lifetime', async () => {
    const s = await start({ tokenTtlSeconds: 0.2 })
    try {
      const code = await codeFor({}, s.url)
      const t = await tokenCall({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uri: REDIRECT }, s.url)
      const call = () => fetch(`${s.url}/services/data/v62.0/limits`, { headers: { Authorization: `Bearer ${t.body.access_token}` } })
      expect((await call()).status).toBe(200)
      await new Promise((r) => setTimeout(r, 300))
      expect((await call()).status).toBe(401)
    } finally {
      await s.close()
    }
  })

  it('the sandbox login issues tokens for the sandbox org', async () => {
    const code = await codeFor({}, sim.sandboxLoginUrl)
    const t = await tokenCall({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uri: REDIRECT }, sim.sandboxLoginUrl)
    expect(t.body.id).toBe(`${sim.sandboxLoginUrl}/id/${sim.sandbox.orgId}/${sim.sandbox.userId}`)
    expect(t.body.instance_url).toBe(sim.url)
  })
})

function createHmacB64(secret: string, data: string): string {
  return createHmac('sha256', secret).update(data).digest('base64')
}
