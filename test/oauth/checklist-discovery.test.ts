/** oauth-checklist.md C.1-C.5: discovery documents, CORS on them, 404 JSON for unknown well-known paths. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { createOrgWithAdmin } from '../helpers/build-app.ts'
import { body, closeHarness, createHarness, ISSUER, MCP_RESOURCE, obtainCode, resetHarness, tokenRequest, confidentialClient, type OAuthHarness } from './helpers.ts'

describe.each(await targets())('OAuth checklist C.1-5 (discovery) on %s', (target) => {
  let h: OAuthHarness
  beforeAll(async () => {
    h = await createHarness(target)
  })
  afterAll(() => closeHarness(h))
  beforeEach(() => resetHarness(h))

  it('C.1 publishes authorization server metadata whose issuer equals the PRM authorization server and the well-known base', async () => {
    const res = await h.app.inject({ url: '/.well-known/oauth-authorization-server' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const meta = body(res)
    const prm = body(await h.app.inject({ url: '/.well-known/oauth-protected-resource' }))
    const prmMcp = body(await h.app.inject({ url: '/.well-known/oauth-protected-resource/mcp' }))
    expect(meta.issuer).toBe(ISSUER)
    expect(meta.issuer).toBe(prm.authorization_servers[0])
    expect(meta.issuer).toBe(prmMcp.authorization_servers[0])
    // The document was fetched at <issuer>/.well-known/oauth-authorization-server (RFC 8414 §3).
    expect(new URL('/.well-known/oauth-authorization-server', meta.issuer).href).toBe(`${meta.issuer}/.well-known/oauth-authorization-server`)
    expect(meta.code_challenge_methods_supported).toEqual(['S256'])
    expect(meta.authorization_endpoint).toBe(`${ISSUER}/oauth/authorize`)
    expect(meta.token_endpoint).toBe(`${ISSUER}/api/oauth/token`)
    expect(meta.response_types_supported).toEqual(['code'])
    expect(meta.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code']))
    expect(meta.scopes_supported).toEqual(['crm:read', 'crm:write', 'erp:read'])
    expect(meta.authorization_response_iss_parameter_supported).toBe(true)
    expect(meta.registration_endpoint).toBe(`${ISSUER}/api/oauth/register`)
    expect(meta.client_id_metadata_document_supported).toBe(true)
    expect(meta.revocation_endpoint).toBe(`${ISSUER}/api/oauth/revoke`)
    expect(meta.introspection_endpoint).toBe(`${ISSUER}/api/oauth/introspect`)
    expect(typeof meta.service_documentation).toBe('string')
    expect(new Set(meta.token_endpoint_auth_methods_supported)).toEqual(new Set(['client_secret_basic', 'client_secret_post', 'none']))
  })

  it('C.1 token_endpoint_auth_methods_supported lists exactly what the token endpoint accepts', async () => {
    const admin = await createOrgWithAdmin(h.app)
    const client = await confidentialClient(h.app, admin.orgId)
    const meta = body(await h.app.inject({ url: '/.well-known/oauth-authorization-server' }))
    // client_secret_basic
    const a = await obtainCode(admin, client)
    const basicRes = await tokenRequest(h.app, { grant_type: 'authorization_code', code: a.code, code_verifier: a.verifier, redirect_uri: a.redirectUri }, { auth: { id: client.client_id, secret: client.client_secret } })
    expect(basicRes.statusCode).toBe(200)
    // client_secret_post
    const b = await obtainCode(admin, client)
    const postRes = await tokenRequest(h.app, { grant_type: 'authorization_code', code: b.code, code_verifier: b.verifier, redirect_uri: b.redirectUri, client_id: client.client_id, client_secret: client.client_secret })
    expect(postRes.statusCode).toBe(200)
    // none: a public client registered dynamically (exercised fully in checklist-token.test.ts)
    const reg = await h.app.inject({ method: 'POST', url: '/api/oauth/register', payload: { redirect_uris: ['https://app.example.test/callback'], token_endpoint_auth_method: 'none' } })
    expect(reg.statusCode).toBe(201)
    const pub = body(reg)
    const c = await obtainCode(admin, pub)
    const noneRes = await tokenRequest(h.app, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri, client_id: pub.client_id })
    expect(noneRes.statusCode).toBe(200)
    expect(meta.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'none']))
    // A scheme not listed (e.g. Bearer / private_key_jwt-style headers) is refused.
    const d = await obtainCode(admin, client)
    const bearer = await tokenRequest(h.app, { grant_type: 'authorization_code', code: d.code, code_verifier: d.verifier, redirect_uri: d.redirectUri, client_id: client.client_id }, { headers: { authorization: `Bearer ${client.client_secret}` } })
    expect(bearer.statusCode).toBe(401)
    expect(body(bearer).error).toBe('invalid_client')
    expect(bearer.body).not.toContain(client.client_secret)
  })

  it('C.2 publishes the /mcp protected resource metadata', async () => {
    const res = await h.app.inject({ url: '/.well-known/oauth-protected-resource/mcp' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const prm = body(res)
    expect(prm.resource).toBe(MCP_RESOURCE)
    expect(prm.authorization_servers).toEqual([ISSUER])
    expect(prm.scopes_supported).toEqual(['crm:read', 'crm:write', 'erp:read'])
    expect(prm.bearer_methods_supported).toEqual(['header'])
    expect(typeof prm.resource_name).toBe('string')
  })

  it('C.3 publishes the root protected resource metadata without a trailing slash', async () => {
    const res = await h.app.inject({ url: '/.well-known/oauth-protected-resource' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const prm = body(res)
    expect(prm.resource).toBe(ISSUER)
    expect(prm.resource.endsWith('/')).toBe(false)
    expect(prm.authorization_servers).toEqual([ISSUER])
  })

  it.each(['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])(
    'C.4 answers the CORS preflight on %s, allowing MCP-Protocol-Version',
    async (url) => {
      const res = await h.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: 'https://claude.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'mcp-protocol-version' },
      })
      expect([200, 204]).toContain(res.statusCode)
      expect(res.headers['access-control-allow-origin']).toBe('*')
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('mcp-protocol-version')
      const get = await h.app.inject({ url, headers: { origin: 'https://claude.example', 'mcp-protocol-version': '2025-06-18' } })
      expect(get.statusCode).toBe(200)
      expect(get.headers['access-control-allow-origin']).toBe('*')
    },
  )

  it('C.4 (B) allows CORS on the token endpoint but never on the authorization endpoint', async () => {
    const token = await h.app.inject({ method: 'OPTIONS', url: '/api/oauth/token', headers: { origin: 'https://claude.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
    expect(token.headers['access-control-allow-origin']).toBe('*')
    const authz = await h.app.inject({ method: 'OPTIONS', url: '/oauth/authorize', headers: { origin: 'https://claude.example', 'access-control-request-method': 'GET' } })
    expect(authz.headers['access-control-allow-origin']).toBeUndefined()
    const authzGet = await h.app.inject({ url: '/oauth/authorize?client_id=x', headers: { origin: 'https://claude.example' } })
    expect(authzGet.headers['access-control-allow-origin']).toBeUndefined()
  })

  it.each(['/.well-known/openid-configuration', '/.well-known/oauth-protected-resource/unknown', '/.well-known/oauth-authorization-server/extra', '/.well-known/anything'])(
    'C.5 answers %s with 404 JSON, not an HTML page',
    async (url) => {
      const res = await h.app.inject({ url })
      expect(res.statusCode).toBe(404)
      expect(res.headers['content-type']).toMatch(/json/)
      expect(() => JSON.parse(res.body)).not.toThrow()
      expect(res.body).not.toMatch(/<html/i)
    },
  )
})
