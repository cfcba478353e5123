/**
 * The issue's bad-input cases: oversize, repeated and non-UTF-8 parameters at the authorization and
 * token endpoints (never a 500, never a redirect before verification, nothing issued), redirect URI
 * rules at client creation (Settings API) and dynamic registration, and who may use Settings -> API.
 * Also the token endpoint's request rate limits (per client, per address).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../src/app.ts'
import { targets } from '../helpers/databases.ts'
import { addMember, createOrgWithAdmin, testConfig, type Member } from '../helpers/build-app.ts'
import { api, authorizeParams, body, confidentialClient, countRows, getAuthorize, ISSUER, location, obtainCode, obtainTokens, pkce, postConsent, query, REDIRECT, redeem, tokenRequest, type OAuthHarness, type TestClient, oauthHarnessPerFile } from './helpers.ts'

const BAD_REDIRECT_URIS = [
  'https://app.example.test/cb#frag',
  'https://app.example.test/cb#',
  'https://user:pass@app.example.test/cb',
  'https://user@app.example.test/cb',
  'http://app.example.test/cb',
  'http://localhost.evil.test/cb',
  'http://127.0.0.1.nip.io/cb',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'ftp://app.example.test/cb',
  'vbscript:msgbox',
  '/relative/callback',
  'app.example.test/cb',
  '',
  'https://' + 'a'.repeat(3000) + '.test/cb',
]
const GOOD_REDIRECT_URIS = ['https://app.example.test/cb', 'http://127.0.0.1/cb', 'http://127.0.0.1:8080/cb', 'http://localhost/cb', 'http://[::1]:9000/cb', 'com.example.app:/callback', 'https://app.example.test/cb?tenant=1']

function expectNot500(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 200)}`).toBeLessThan(500)
}

describe.each(await targets())('OAuth bad input on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  oauthHarnessPerFile(target, (harness, a, c) => {
    h = harness
    admin = a
    client = c
  })

  function rawAuthorize(member: Member | null, rawQuery: string) {
    const url = `/oauth/authorize?${rawQuery}`
    return member ? member.request({ url }) : h.app.inject({ url })
  }

  function rawToken(payload: string, headers: Record<string, string> = {}) {
    return h.app.inject({ method: 'POST', url: '/api/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload })
  }

  describe('authorization endpoint', () => {
    it('oversize parameters: client_id / redirect_uri -> 400 page; the rest -> redirected error; never 500, no code', async () => {
      const huge = 'x'.repeat(5000)
      for (const overrides of [{ client_id: 'crm_' + huge }, { redirect_uri: `${REDIRECT}?${huge}` }]) {
        for (const res of [await getAuthorize(h.app, admin, authorizeParams(client, pkce(), overrides)), await postConsent(admin, authorizeParams(client, pkce(), overrides))]) {
          expect(res.statusCode).toBe(400)
          expect(res.headers.location).toBeUndefined()
        }
      }
      const cases: [Record<string, string>, string][] = [
        [{ state: huge }, 'invalid_request'],
        [{ scope: 'crm:read '.repeat(600) + 'x' }, 'invalid_scope'],
        [{ code_challenge: huge }, 'invalid_request'],
        [{ code_challenge_method: huge }, 'invalid_request'],
        [{ response_type: huge }, 'unsupported_response_type'],
        [{ resource: `${ISSUER}/${huge}` }, 'invalid_target'],
      ]
      for (const [overrides, error] of cases) {
        for (const res of [await getAuthorize(h.app, admin, authorizeParams(client, pkce(), overrides)), await postConsent(admin, authorizeParams(client, pkce(), overrides))]) {
          expect(res.statusCode, Object.keys(overrides)[0]).toBe(303)
          const loc = location(res)
          expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT)
          expect(loc.searchParams.get('error'), Object.keys(overrides)[0]).toBe(error)
          expect(loc.searchParams.get('code')).toBeNull()
        }
      }
      expect(await countRows(h.app, 'oauth_codes')).toBe(0)
    })

    it('repeated parameters: client_id / redirect_uri -> 400 page, others -> invalid_request redirect; no code', async () => {
      const base = authorizeParams(client, pkce())
      for (const name of ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource']) {
        const extra: [string, string][] = [[name, String(base[name])]]
        const get = await getAuthorize(h.app, admin, base, extra)
        expect(get.statusCode, name).toBe(303)
        expect(location(get).searchParams.get('error'), name).toBe('invalid_request')
        const post = await admin.request({ method: 'POST', url: '/oauth/authorize', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: query({ ...base, csrf_token: admin.csrf, org_id: admin.orgId, decision: 'allow' }, extra) })
        expect(post.statusCode, name).toBe(303)
        expect(location(post).searchParams.get('error'), name).toBe('invalid_request')
        expect(location(post).searchParams.get('code')).toBeNull()
      }
      for (const name of ['client_id', 'redirect_uri']) {
        const get = await getAuthorize(h.app, admin, base, [[name, String(base[name])]])
        expect(get.statusCode).toBe(400)
        expect(get.headers.location).toBeUndefined()
      }
      // Repeated form fields of the consent itself must not smuggle a second organization or decision.
      const other = await createOrgWithAdmin(h.app, 'Other')
      const smuggled = await admin.request({ method: 'POST', url: '/oauth/authorize', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: query({ ...base, csrf_token: admin.csrf, decision: 'allow' }, [['org_id', admin.orgId], ['org_id', other.orgId]]) })
      expectNot500(smuggled, 'repeated org_id')
      expect(smuggled.headers.location ? location(smuggled).searchParams.get('code') : null).toBeNull()
      const twoDecisions = await admin.request({ method: 'POST', url: '/oauth/authorize', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: query({ ...base, csrf_token: admin.csrf, org_id: admin.orgId }, [['decision', 'deny'], ['decision', 'allow']]) })
      expectNot500(twoDecisions, 'repeated decision')
      expect(twoDecisions.headers.location ? location(twoDecisions).searchParams.get('code') : null).toBeNull()
      expect(await countRows(h.app, 'oauth_codes')).toBe(0)
    })

    it('non-UTF-8 and control characters in parameters never cause a 500', async () => {
      const q = query(authorizeParams(client, pkce()))
      const variants = [
        `client_id=%FF&response_type=code`,
        `client_id=%FF%FE%FD&redirect_uri=${encodeURIComponent(REDIRECT)}`,
        `client_id=%00&response_type=code`,
        `client_id=crm_%00x`,
        `client_id=%C3%28`,
        `client_id=%E0%80%80`,
        `client_id=%ZZ`,
        `client_id=%`,
        q.replace(/redirect_uri=[^&]*/, 'redirect_uri=https%3A%2F%2Fapp.example.test%2Fcallback%FF'),
        q.replace(/redirect_uri=[^&]*/, 'redirect_uri=https%3A%2F%2Fapp.example.test%2Fcallback%00'),
        q.replace(/state=[^&]*/, 'state=%FF%FE'),
        q.replace(/state=[^&]*/, 'state=%00'),
        q.replace(/scope=[^&]*/, 'scope=crm%3Aread%FF'),
        q.replace(/scope=[^&]*/, 'scope=crm%3Aread%00'),
        q.replace(/code_challenge=[^&]*/, 'code_challenge=%FF'),
        q.replace(/resource=[^&]*/, 'resource=http%3A%2F%2Flocalhost%3A3000%FF'),
        q.replace(/resource=[^&]*/, 'resource=http%3A%2F%2Flocalhost%3A3000%00'),
        q + '&%FF=%FF',
      ]
      for (const v of variants) {
        for (const who of [admin, null]) {
          const res = await rawAuthorize(who, v)
          expectNot500(res, `GET ${v.slice(0, 80)}`)
          if (res.statusCode === 303) {
            const loc = location(res)
            // a redirect goes only to sign-in or to the registered redirect URI
            expect([`${ISSUER}/sign-in`, REDIRECT]).toContain(`${loc.origin}${loc.pathname}`)
          }
        }
        const post = await admin.request({ method: 'POST', url: '/oauth/authorize', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `${v}&csrf_token=${admin.csrf}&org_id=${admin.orgId}&decision=allow` })
        expectNot500(post, `POST ${v.slice(0, 80)}`)
      }
      // No variant with a broken redirect_uri/client produced a code; only well-formed ones can.
      const codes = await h.app.db.selectFrom('oauth_codes').select(['redirect_uri', 'scopes']).execute()
      for (const c of codes) expect(c.redirect_uri).toBe(REDIRECT)
    })
  })

  describe('token endpoint', () => {
    it('oversize parameters and bodies -> 400/413 RFC 6749 JSON, never 500; the code survives', async () => {
      const c = await obtainCode(admin, client)
      const grant = { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri }
      const huge = 'x'.repeat(5000)
      for (const overrides of [{ code: huge }, { code_verifier: huge }, { redirect_uri: huge }, { resource: huge }, { grant_type: huge }, { client_id: client.client_id + huge }, { client_secret: huge }, { foo: huge }]) {
        const res = await tokenRequest(h.app, { ...grant, client_id: client.client_id, client_secret: client.client_secret, ...overrides })
        expect(res.statusCode, Object.keys(overrides)[0]).toBe(400)
        expect(body(res).error, Object.keys(overrides)[0]).toBe('invalid_request')
      }
      const big = await rawToken(query({ ...grant, client_id: client.client_id, client_secret: client.client_secret, pad: 'p'.repeat(200_000) }))
      expect([400, 413]).toContain(big.statusCode)
      expect(body(big).error).toBe('invalid_request')
      expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
      expect((await redeem(h.app, client, c)).statusCode).toBe(200)
    })

    it('repeated parameters -> 400 invalid_request and nothing issued; the code survives', async () => {
      const c = await obtainCode(admin, client)
      const grant = { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri, client_id: client.client_id, client_secret: client.client_secret }
      for (const name of Object.keys(grant) as (keyof typeof grant)[]) {
        const res = await tokenRequest(h.app, grant, { extra: [[name, grant[name]]] })
        expect(res.statusCode, name).toBe(400)
        expect(body(res).error, name).toBe('invalid_request')
      }
      const other = await obtainCode(admin, client)
      const twoCodes = await tokenRequest(h.app, grant, { extra: [['code', other.code]] })
      expect(body(twoCodes).error).toBe('invalid_request')
      expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
      expect((await redeem(h.app, client, c)).statusCode).toBe(200)
    })

    it('non-UTF-8, NUL and malformed encodings in the form or Basic header never cause a 500', async () => {
      const c = await obtainCode(admin, client)
      const ok = query({ grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri })
      const secretPost = `&client_id=${client.client_id}&client_secret=${client.client_secret}`
      const payloads = [
        `grant_type=authorization_code&code=%FF%FE&code_verifier=${c.verifier}${secretPost}`,
        `grant_type=authorization_code&code=%00${secretPost}`,
        `grant_type=%FF${secretPost}`,
        `grant_type=authorization_code%00${secretPost}`,
        `${ok}&client_id=%FF&client_secret=%FF`,
        `${ok}&client_id=%00&client_secret=x`,
        `${ok}&client_id=crm_%00&client_secret=x`,
        `${ok}&client_id=${client.client_id}&client_secret=%FF%00`,
        `${ok}&client_id=%ZZ&client_secret=%`,
        `${ok.replace(/redirect_uri=[^&]*/, 'redirect_uri=%FF')}${secretPost}`,
        `${ok.replace(/redirect_uri=[^&]*/, 'redirect_uri=%00')}${secretPost}`,
        `${ok}&resource=%FF${secretPost}`,
        `${ok}&resource=%00${secretPost}`,
        `${ok.replace(/code_verifier=[^&]*/, 'code_verifier=%FF')}${secretPost}`,
        `grant_type=refresh_token&refresh_token=%FF%00${secretPost}`,
        `grant_type=refresh_token&refresh_token=crm_rt_x&scope=%FF%00${secretPost}`,
      ]
      for (const p of payloads) {
        const res = await rawToken(p)
        expectNot500(res, p.slice(0, 90))
        expect(String(res.headers['content-type']), p.slice(0, 90)).toMatch(/application\/json/)
        expect(typeof body(res).error, `${res.statusCode} ${res.body.slice(0, 100)} <- ${p.slice(0, 90)}`).toBe('string')
      }
      const b64 = (s: Buffer | string) => Buffer.from(s).toString('base64')
      for (const header of [
        'Basic ' + b64(Buffer.from([0xff, 0xfe, 0x3a, 0xff])),
        'Basic ' + b64('%ZZ:%ZZ'),
        'Basic ' + b64('%00:x'),
        'Basic ' + b64(`${client.client_id}:%00`),
        'Basic ' + b64('nocolon'),
        'Basic !!!not-base64!!!',
        'Basic ',
        'Basic',
        'Basic ' + b64(`${'a'.repeat(5000)}:b`),
      ]) {
        const res = await rawToken(ok, { authorization: header })
        expectNot500(res, header.slice(0, 40))
        expect([400, 401]).toContain(res.statusCode)
        expect(['invalid_request', 'invalid_client']).toContain(body(res).error)
      }
      expect(await countRows(h.app, 'oauth_tokens')).toBe(0)
      expect((await redeem(h.app, client, c)).statusCode).toBe(200)
      // Bytes that are not UTF-8, even in an unknown parameter's name, are refused (never read as
      // U+FFFD), with RFC 6749 error JSON that says so; the code is not spent and still redeems.
      const d = await obtainCode(admin, client)
      const grant = query({ grant_type: 'authorization_code', code: d.code, code_verifier: d.verifier, redirect_uri: d.redirectUri })
      for (const junk of [`%FF=%FF&${grant}`, `${grant}&state=%C3%28`, `${grant}&x=%ED%A0%80`]) {
        const refused = await rawToken(`${junk}${secretPost}`)
        expect(refused.statusCode, junk).toBe(400)
        expect(body(refused)).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('not valid UTF-8') })
      }
      const raw = await rawToken(Buffer.concat([Buffer.from(`${grant}&x=a`), Buffer.from([0xc3]), Buffer.from(secretPost)]) as unknown as string)
      expect(raw.statusCode).toBe(400)
      expect(body(raw).error_description).toContain('not valid UTF-8')
      expect((await redeem(h.app, client, d)).statusCode).toBe(200)
    })

    it('revocation and introspection endpoints survive the same bad input', async () => {
      const t = await obtainTokens(h.app, admin, client)
      const auth = { authorization: 'Basic ' + Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64') }
      for (const url of ['/api/oauth/revoke', '/api/oauth/introspect']) {
        for (const payload of ['token=%FF%00', 'token=%00', `token=${'x'.repeat(5000)}`, `token=a&token=b`, '%FF=%FF', '']) {
          const res = await h.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth }, payload })
          expectNot500(res, `${url} ${payload.slice(0, 30)}`)
        }
        const asJson = await h.app.inject({ method: 'POST', url, headers: auth, payload: { token: t.access_token } })
        expect(asJson.statusCode).toBe(400)
        expect(body(asJson).error).toBe('invalid_request')
      }
      expect((await api(h.app, t.access_token)).statusCode).toBe(200)
    })
  })

  describe('redirect URI rules at client creation', () => {
    it('the Settings API refuses fragments, userinfo, non-https (loopback http excepted) and dangerous schemes', async () => {
      const before = await countRows(h.app, 'oauth_clients')
      for (const uri of BAD_REDIRECT_URIS) {
        const res = await admin.request({ method: 'POST', url: '/api/v1/settings/api-clients', payload: { name: 'Bad', redirect_uris: [uri], scopes: ['crm:read'] } })
        expect(res.statusCode, uri.slice(0, 60)).toBe(400)
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/)
        expect(res.body).not.toContain('client_secret')
      }
      // one bad among good ones spoils the lot
      const mixed = await admin.request({ method: 'POST', url: '/api/v1/settings/api-clients', payload: { name: 'Mixed', redirect_uris: ['https://app.example.test/cb', 'https://app.example.test/cb#x'], scopes: ['crm:read'] } })
      expect(mixed.statusCode).toBe(400)
      expect(await countRows(h.app, 'oauth_clients')).toBe(before)
      for (const uri of GOOD_REDIRECT_URIS) {
        const res = await admin.request({ method: 'POST', url: '/api/v1/settings/api-clients', payload: { name: 'Good', redirect_uris: [uri], scopes: ['crm:read'] } })
        expect(res.statusCode, uri).toBe(201)
        expect(body(res).client_secret).toMatch(/^crm_cs_/)
        expect(res.headers['cache-control']).toBe('no-store')
      }
      // control characters (NUL) are refused, never a 500
      const nulUri = await admin.request({ method: 'POST', url: '/api/v1/settings/api-clients', payload: { name: 'N', redirect_uris: ['https://app.example.test/cb\u0000'], scopes: ['crm:read'] } })
      expect(nulUri.statusCode).toBe(400)
      const nulName = await admin.request({ method: 'POST', url: '/api/v1/settings/api-clients', payload: { name: 'nul\u0000name', redirect_uris: ['https://app.example.test/cb'], scopes: ['crm:read'] } })
      expect(nulName.statusCode).toBe(400)
      for (const id of ['crm_%00', '%FF%FE', 'x'.repeat(3000)]) {
        const res = await admin.request({ method: 'DELETE', url: `/api/v1/settings/api-clients/${id}` })
        expect(res.statusCode, id.slice(0, 20)).toBeGreaterThanOrEqual(400)
        expect(res.statusCode, id.slice(0, 20)).toBeLessThan(500)
      }
      // unknown scopes are refused too
      const scope = await admin.request({ method: 'POST', url: '/api/v1/settings/api-clients', payload: { name: 'S', redirect_uris: ['https://app.example.test/cb'], scopes: ['crm:admin'] } })
      expect(scope.statusCode).toBe(400)
    })

    it('dynamic registration refuses the same with invalid_redirect_uri and stores nothing', async () => {
      const before = await countRows(h.app, 'oauth_clients')
      let n = 0
      const register = (payload: unknown, headers: Record<string, string> = {}) =>
        h.app.inject({ method: 'POST', url: '/api/oauth/register', payload: payload as string, headers, remoteAddress: `198.51.100.${++n}` }) // under the per-address registration limit
      for (const uri of BAD_REDIRECT_URIS) {
        const res = await register({ client_name: 'Bad', redirect_uris: [uri] })
        expect(res.statusCode, uri.slice(0, 60)).toBe(400)
        expect(body(res).error, uri.slice(0, 60)).toBe('invalid_redirect_uri')
        expect(res.body).not.toContain('client_secret')
      }
      for (const payload of [{ client_name: 'x' }, { redirect_uris: [] }, { redirect_uris: 'https://app.example.test/cb' }, { redirect_uris: [42] }, { redirect_uris: ['https://app.example.test/cb', 'http://evil.test/cb'] }, { redirect_uris: ['https://app.example.test/cb\u0000'] }]) {
        const res = await register(payload)
        expect(res.statusCode).toBe(400)
        expect(body(res).error).toBe('invalid_redirect_uri')
      }
      for (const payload of [
        { redirect_uris: ['https://app.example.test/cb'], token_endpoint_auth_method: 'private_key_jwt' },
        { redirect_uris: ['https://app.example.test/cb'], grant_types: ['client_credentials'] },
        { redirect_uris: ['https://app.example.test/cb'], response_types: ['token'] },
        { redirect_uris: ['https://app.example.test/cb'], scope: 'crm:admin' },
        { redirect_uris: ['https://app.example.test/cb'], client_name: 'n'.repeat(500) },
        { redirect_uris: ['https://app.example.test/cb'], client_name: 'nul\u0000name' },
      ]) {
        const res = await register(payload)
        expect(res.statusCode).toBe(400)
        expect(body(res).error).toBe('invalid_client_metadata')
      }
      const malformed = await register('{"redirect_uris": [', { 'content-type': 'application/json' })
      expect(malformed.statusCode).toBe(400)
      expect(['invalid_request', 'invalid_client_metadata']).toContain(body(malformed).error)
      expect(await countRows(h.app, 'oauth_clients')).toBe(before)
      for (const uri of GOOD_REDIRECT_URIS) {
        const res = await register({ redirect_uris: [uri] })
        expect(res.statusCode, uri).toBe(201)
      }
    })

    // Issue 29, item 6: deep nesting was walked before anything refused it, and bytes that are not
    // UTF-8 were stored as U+FFFD (a client_name). Both are RFC 6749 invalid_request JSON naming the
    // problem, at registration and at the form endpoints alike; nothing is stored or issued.
    it('bodies nested too deep or not UTF-8 are 400 invalid_request saying so, and store nothing', async () => {
      const before = await countRows(h.app, 'oauth_clients')
      let n = 0
      const post = (url: string, payload: string | Buffer, type = 'application/json') =>
        h.app.inject({ method: 'POST', url, payload, headers: { 'content-type': type }, remoteAddress: `203.0.113.${++n}` })
      const deep = [`${'['.repeat(8000)}${']'.repeat(8000)}`, `{"redirect_uris":["https://app.example.test/cb"],"x":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`]
      for (const [url, payload, type, says] of [
        ['/api/oauth/register', deep[0], 'application/json', 'deeper than 64 levels'],
        ['/api/oauth/register', deep[1], 'application/json', 'deeper than 64 levels'],
        ['/api/oauth/token', deep[0], 'application/json', 'deeper than 64 levels'],
        ['/api/oauth/register', Buffer.concat([Buffer.from('{"redirect_uris":["https://app.example.test/cb"],"client_name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]), 'application/json', 'not valid UTF-8'],
        ['/api/oauth/revoke', Buffer.concat([Buffer.from('token=crm_at_'), Buffer.from([0xe9])]), 'application/x-www-form-urlencoded', 'not valid UTF-8'],
        ['/api/oauth/token', 'grant_type=refresh_token&refresh_token=crm_rt_%C0%AF', 'application/x-www-form-urlencoded', 'not valid UTF-8'],
      ] as const) {
        const res = await post(url, payload, type)
        expect(res.statusCode, `${url} ${res.body}`).toBe(400)
        expect(res.headers['content-type']).toMatch(/^application\/json/)
        expect(body(res)).toEqual({ error: 'invalid_request', error_description: expect.stringContaining(says) })
      }
      expect(await countRows(h.app, 'oauth_clients')).toBe(before)
    })

    it('a registered scope list limits what can be authorized (invalid_scope beyond it)', async () => {
      const reg = body(await h.app.inject({ method: 'POST', url: '/api/oauth/register', payload: { redirect_uris: [REDIRECT], scope: 'crm:read' } }))
      const params = authorizeParams(reg, pkce(), { scope: 'crm:read crm:write' })
      const res = await postConsent(admin, params)
      expect(location(res).searchParams.get('error')).toBe('invalid_scope')
      expect(await countRows(h.app, 'oauth_codes')).toBe(0)
    })
  })

  describe('who may use Settings -> API', () => {
    it('an admin of organization A cannot revoke (or see) a client of organization B: 404, and it keeps working', async () => {
      const adminB = await createOrgWithAdmin(h.app, 'B')
      const clientB = await confidentialClient(h.app, adminB.orgId)
      const tb = await obtainTokens(h.app, adminB, clientB)
      const codesBefore = await countRows(h.app, 'oauth_codes')
      const del = await admin.request({ method: 'DELETE', url: `/api/v1/settings/api-clients/${clientB.client_id}` })
      expect(del.statusCode).toBe(404)
      expect(body(del).code).toBe('not_found')
      const list = body(await admin.request({ url: '/api/v1/settings/api-clients' })).data as { client_id: string }[]
      expect(list.map((c) => c.client_id)).not.toContain(clientB.client_id)
      expect((await api(h.app, tb.access_token)).statusCode).toBe(200)
      // and A's people cannot authorize B's client either
      const page = await getAuthorize(h.app, admin, authorizeParams(clientB, pkce()))
      expect(page.statusCode).toBe(303)
      expect(location(page).searchParams.get('error')).toBe('access_denied')
      const post = await postConsent(admin, authorizeParams(clientB, pkce()))
      expect(location(post).searchParams.get('code')).toBeNull()
      expect(await countRows(h.app, 'oauth_codes')).toBe(codesBefore)
    })

    it('members (non-admins) get 403 on every Settings -> API call', async () => {
      const member = await addMember(h.app, admin.orgId, 'member')
      const list = await member.request({ url: '/api/v1/settings/api-clients' })
      expect(list.statusCode).toBe(403)
      const create = await member.request({ method: 'POST', url: '/api/v1/settings/api-clients', payload: { name: 'M', redirect_uris: ['https://app.example.test/cb'], scopes: ['crm:read'] } })
      expect(create.statusCode).toBe(403)
      expect(create.body).not.toContain('crm_cs_')
      const del = await member.request({ method: 'DELETE', url: `/api/v1/settings/api-clients/${client.client_id}` })
      expect(del.statusCode).toBe(403)
      const t = await obtainTokens(h.app, admin, client)
      expect((await api(h.app, t.access_token)).statusCode).toBe(200)
    })

    it('bearer tokens cannot use Settings -> API, even an admin\'s token with every scope', async () => {
      const t = await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write erp:read' })
      const list = await api(h.app, t.access_token, { url: '/api/v1/settings/api-clients' })
      expect(list.statusCode).toBe(403)
      const create = await api(h.app, t.access_token, { method: 'POST', url: '/api/v1/settings/api-clients', payload: { name: 'T', redirect_uris: ['https://app.example.test/cb'], scopes: ['crm:read'] } })
      expect(create.statusCode).toBe(403)
      expect(create.body).not.toContain('crm_cs_')
      const del = await api(h.app, t.access_token, { method: 'DELETE', url: `/api/v1/settings/api-clients/${client.client_id}` })
      expect(del.statusCode).toBe(403)
      expect((await api(h.app, t.access_token)).statusCode).toBe(200)
    })
  })

  describe('token endpoint request rate limits', () => {
    let limited: FastifyInstance
    beforeAll(async () => {
      limited = await buildApp({ config: testConfig({ OAUTH_TOKEN_RATE_PER_CLIENT: '3', OAUTH_TOKEN_RATE_PER_ADDRESS: '5' }), database: h.tdb.database, logger: false, clock: h.clock })
      await limited.ready()
    })
    afterAll(() => limited?.close())

    it('per client and per address -> 429 slow_down with Retry-After', async () => {
      const grant = { grant_type: 'refresh_token', refresh_token: 'crm_rt_unknown' }
      const basicOf = (c: TestClient) => ({ auth: { id: c.client_id, secret: c.client_secret } })
      for (let i = 0; i < 3; i++) expect((await tokenRequest(limited, grant, { ...basicOf(client), remoteAddress: `10.1.0.${i}` })).statusCode).toBe(400)
      const perClient = await tokenRequest(limited, grant, { ...basicOf(client), remoteAddress: '10.1.0.9' })
      expect(perClient.statusCode).toBe(429)
      expect(body(perClient).error).toBe('slow_down')
      expect(Number(perClient.headers['retry-after'])).toBeGreaterThan(0)
      const other = await confidentialClient(h.app, admin.orgId)
      for (let i = 0; i < 5; i++) await tokenRequest(limited, grant, { ...basicOf(other), remoteAddress: '10.2.0.1' })
      const perAddress = await tokenRequest(limited, grant, { ...basicOf(await confidentialClient(h.app, admin.orgId)), remoteAddress: '10.2.0.1' })
      expect(perAddress.statusCode).toBe(429)
      expect(Number(perAddress.headers['retry-after'])).toBeGreaterThan(0)
      h.clock.advance(61)
      expect((await tokenRequest(limited, grant, { ...basicOf(client), remoteAddress: '10.1.0.9' })).statusCode).toBe(400)
    })
  })
})
