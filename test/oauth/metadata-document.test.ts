/**
 * Client ID Metadata Documents: an https client_id is fetched (through the SSRF guard), checked and
 * used as a public client; bad documents and private addresses are refused with an error page.
 * The document is served by a real https server on loopback with a throwaway self-signed certificate.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { createOrgWithAdmin, json } from '../helpers/build-app.ts'
import { freePort } from '../helpers/live-service.ts'
import { authorizeParams, closeHarness, createHarness, getAuthorize, obtainCode, pkce, resetHarness, tokenRequest, type OAuthHarness } from './helpers.ts'

// Only this test file's worker trusts the throwaway certificate.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'

const documents = new Map<string, unknown>()
let hits = 0
let server: https.Server
let base: string

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cimd-'))
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
  server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (req, res) => {
    hits++
    const doc = documents.get(req.url ?? '')
    if (doc === undefined) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'application/json' }).end(typeof doc === 'string' || Buffer.isBuffer(doc) ? doc : JSON.stringify(doc))
  })
  const port = await freePort()
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r))
  base = `https://127.0.0.1:${port}`
})
afterAll(() => server?.close())

describe.each(await targets())('Client ID Metadata Documents on %s', (target) => {
  let h: OAuthHarness
  let strict: OAuthHarness
  /** Built last: its setting must stay its own (it once was process-wide and turned `h` off too). */
  let off: OAuthHarness
  beforeAll(async () => {
    h = await createHarness(target, { ALLOW_PRIVATE_OUTBOUND: 'true' })
    strict = await createHarness(target, { ALLOW_PRIVATE_OUTBOUND: 'false' })
    off = await createHarness(target, { ALLOW_PRIVATE_OUTBOUND: 'true', OAUTH_METADATA_DOCUMENTS: 'false' })
  })
  afterAll(async () => {
    await closeHarness(h)
    await closeHarness(strict)
    await closeHarness(off)
  })
  beforeEach(async () => {
    await resetHarness(h)
    await resetHarness(strict)
    await resetHarness(off)
  })

  it('uses a valid document as a public client through the whole flow', async () => {
    const clientId = `${base}/${target}/good.json`
    documents.set(`/${target}/good.json`, { client_id: clientId, client_name: 'Metadata Host', redirect_uris: ['https://app.example.test/callback'], token_endpoint_auth_method: 'none', scope: 'crm:read' })
    const admin = await createOrgWithAdmin(h.app)
    const p = pkce()
    const page = await getAuthorize(h.app, admin, authorizeParams({ client_id: clientId }, p, { scope: 'crm:read' }))
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('Allow Metadata Host to access your CRM?')
    expect(page.body).toContain(`Identified by <strong>127.0.0.1:`)
    const code = await obtainCode(admin, { client_id: clientId }, { scope: 'crm:read' }, p)
    const token = await tokenRequest(h.app, { grant_type: 'authorization_code', code: code.code, redirect_uri: code.redirectUri, code_verifier: p.verifier, client_id: clientId })
    expect(token.statusCode).toBe(200)
    expect(json(token).scope).toBe('crm:read')
    // A public client has no secret: presenting one is refused.
    const withSecret = await tokenRequest(h.app, { grant_type: 'authorization_code', code: 'x', code_verifier: p.verifier, client_id: clientId, client_secret: 'crm_cs_guess' })
    expect(withSecret.statusCode).toBe(401)
    const list = json(await admin.request({ url: '/api/v1/settings/api-clients' }))
    expect(list.data[0]).toMatchObject({ client_id: clientId, registration: 'metadata_document', origin: new URL(base).host })
  })

  it.each([
    ['a client_id that differs from its URL', (url: string) => ({ client_id: `${url}x`, client_name: 'X', redirect_uris: ['https://a.test/cb'] }), 'different from its URL'],
    ['a shared secret method', (url: string) => ({ client_id: url, client_name: 'X', redirect_uris: ['https://a.test/cb'], token_endpoint_auth_method: 'client_secret_basic' }), 'token_endpoint_auth_method none'],
    ['a plain-http redirect URI', (url: string) => ({ client_id: url, client_name: 'X', redirect_uris: ['http://evil.test/cb'] }), 'unacceptable redirect URI'],
    ['not JSON', () => '<html>', 'not valid JSON'],
    // Its text is kept (jsonb) and its name shown: bytes that are not UTF-8, deep nesting and a NUL are refused, never stored as U+FFFD or a 500.
    ['bytes that are not UTF-8', (url: string) => Buffer.concat([Buffer.from(`{"client_id":"${url}","client_name":"X`), Buffer.from([0xff]), Buffer.from('","redirect_uris":["https://a.test/cb"]}')]), 'is not valid UTF-8'],
    ['arrays nested 7,000 levels deep', (url: string) => `{"client_id":"${url}","client_name":"X","redirect_uris":["https://a.test/cb"],"x":${'['.repeat(7000)}${']'.repeat(7000)}}`, 'deeper than 64 levels'],
    ['a NUL in its name', (url: string) => ({ client_id: url, client_name: 'X\u0000Y', redirect_uris: ['https://a.test/cb'] }), 'client_name must not contain the NUL character'],
  ])('refuses a document with %s, without redirecting', async (_why, make, message) => {
    const file = `/${target}/bad-${Math.random().toString(36).slice(2)}.json`
    const clientId = `${base}${file}`
    documents.set(file, make(clientId))
    const admin = await createOrgWithAdmin(h.app)
    const res = await getAuthorize(h.app, admin, authorizeParams({ client_id: clientId }, pkce(), { redirect_uri: 'https://a.test/cb' }))
    expect(res.statusCode).toBe(400)
    expect(res.headers.location).toBeUndefined()
    expect(res.body).toContain(message)
  })

  /** Publishes a valid document, asks `harness` to authorize with it: refused with `reason`, never fetched. */
  async function refusedUnfetched(harness: OAuthHarness, name: string, reason: string) {
    const clientId = `${base}/${target}/${name}.json`
    documents.set(`/${target}/${name}.json`, { client_id: clientId, client_name: name, redirect_uris: ['https://a.test/cb'] })
    const admin = await createOrgWithAdmin(harness.app)
    const before = hits
    const res = await getAuthorize(harness.app, admin, authorizeParams({ client_id: clientId }, pkce(), { redirect_uri: 'https://a.test/cb' }))
    expect(res.statusCode).toBe(400)
    expect(res.body).toContain(reason)
    expect(hits).toBe(before)
  }

  it('never fetches a document from a private address unless the operator allows it', async () => {
    await refusedUnfetched(strict, 'private', 'private or reserved address')
  })

  it('never fetches a document from an IPv4 address hidden in an IPv6 transition form (6to4, NAT64, Teredo)', async () => {
    const admin = await createOrgWithAdmin(strict.app)
    for (const host of ['[2002:7f00:1::]', '[64:ff9b:1::7f00:1]', '[2001:0:4136:e378:8000:63bf:80ff:fffe]']) {
      const res = await getAuthorize(strict.app, admin, authorizeParams({ client_id: `https://${host}/client.json` }, pkce(), { redirect_uri: 'https://a.test/cb' }))
      expect(res.statusCode, host).toBe(400)
      expect(res.body, host).toContain('private or reserved address')
    }
  })

  it('refuses https client_ids where the operator turned documents off, and says so in discovery, without touching other apps', async () => {
    await refusedUnfetched(off, 'off', 'Client ID Metadata Documents are turned off on this server')
    const discovery = async (app: OAuthHarness['app']) => JSON.parse((await app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).body)
    expect((await discovery(off.app)).client_id_metadata_document_supported).toBe(false)
    expect((await discovery(h.app)).client_id_metadata_document_supported).toBe(true)
  })
})
