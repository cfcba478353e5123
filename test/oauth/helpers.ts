/**
 * Shared plumbing for the OAuth checklist suites (oauth-checklist.md section C): one app per file on
 * a test database with a movable clock, PKCE pairs, the authorize -> consent -> token dance through
 * `app.inject`, and small readers for redirects, challenges and the rows the server stored.
 */
import crypto from 'node:crypto'
import { sql } from 'kysely'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../src/app.ts'
import { ManualClock } from '../../src/shared/clock.ts'
import { createOrgClient } from '../../src/oauth/client.service.ts'
import { createTestDatabase, type TargetName, type TestDatabase } from '../helpers/databases.ts'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { createOrgWithAdmin, testConfig, type Member } from '../helpers/build-app.ts'

export const ISSUER = 'http://localhost:3000'
export const API_RESOURCE = ISSUER
export const MCP_RESOURCE = `${ISSUER}/mcp`
export const PRM_URL = `${ISSUER}/.well-known/oauth-protected-resource`
export const REDIRECT = 'https://app.example.test/callback'
export const REDIRECT_2 = 'https://app.example.test/other-callback'

export interface OAuthHarness {
  tdb: TestDatabase
  app: FastifyInstance
  clock: ManualClock
}

/** One database and one app (with a ManualClock) for a whole test file. */
export async function createHarness(target: TargetName, overrides: Record<string, string> = {}): Promise<OAuthHarness> {
  const tdb = await createTestDatabase(target)
  const clock = new ManualClock()
  // OAUTH_TEST_LOG=1 shows the server's log (e.g. the cause of a 500).
  const logger = process.env.OAUTH_TEST_LOG ? { level: 'error' } : false
  const app = await buildApp({ config: testConfig(overrides), database: tdb.database, logger, clock })
  await app.ready()
  return { tdb, app, clock }
}

/** Empties tenant data (clients, codes, grants, tokens cascade) and every rate limit counter. */
export async function resetHarness(h: OAuthHarness): Promise<void> {
  await h.tdb.reset()
  await sql`TRUNCATE oauth_clients CASCADE`.execute(h.app.db)
  await sql`DELETE FROM rate_limit_counters`.execute(h.app.db)
}

export async function closeHarness(h: OAuthHarness | undefined): Promise<void> {
  await h?.app.close()
  await h?.tdb.drop()
}

export interface Pkce {
  verifier: string
  challenge: string
}

export function pkce(): Pkce {
  const verifier = crypto.randomBytes(32).toString('base64url') // 43 unreserved characters
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') }
}

export interface TestClient {
  client_id: string
  client_secret: string
  redirect_uris: string[]
}

export async function confidentialClient(app: FastifyInstance, orgId: string, opts: { redirectUris?: string[]; scopes?: string[]; name?: string } = {}): Promise<TestClient> {
  const created = await createOrgClient(app.db, orgId, { name: opts.name ?? 'Test app', redirectUris: opts.redirectUris ?? [REDIRECT], scopes: opts.scopes ?? ['crm:read', 'crm:write', 'erp:read'] }, 'settings')
  return { client_id: created.client_id, client_secret: created.client_secret, redirect_uris: created.redirect_uris }
}

export type Params = Record<string, string | undefined>

/** A query string from params; undefined values are left out; [name, value] pairs allow repeats. */
export function query(params: Params, extra: [string, string][] = []): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.append(k, v)
  for (const [k, v] of extra) q.append(k, v)
  return q.toString()
}

/** A complete, valid authorization request for the client. */
export function authorizeParams(client: { client_id: string }, p: Pkce, overrides: Params = {}): Params {
  return {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope: 'crm:read crm:write',
    state: 'st-' + crypto.randomBytes(6).toString('hex'),
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
    resource: API_RESOURCE,
    ...overrides,
  }
}

/** GET /oauth/authorize, signed in as the member (or anonymous when member is null). */
export function getAuthorize(app: FastifyInstance, member: Member | null, params: Params, extra: [string, string][] = []): Promise<LightMyRequestResponse> {
  const url = `/oauth/authorize?${query(params, extra)}`
  return member ? member.request({ method: 'GET', url }) : app.inject({ method: 'GET', url })
}

/** POST /oauth/authorize: the consent form as the page would send it. */
export function postConsent(member: Member, params: Params, decision: 'allow' | 'deny' = 'allow', extra: Params = {}): Promise<LightMyRequestResponse> {
  return member.request({
    method: 'POST',
    url: '/oauth/authorize',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: query({ ...params, csrf_token: member.csrf, org_id: member.orgId, decision, ...extra }),
  })
}

export function location(res: LightMyRequestResponse): URL {
  const loc = res.headers.location
  if (typeof loc !== 'string') throw new Error(`no Location header (status ${res.statusCode}): ${res.body.slice(0, 300)}`)
  return new URL(loc, ISSUER)
}

export interface CodeResult {
  code: string
  verifier: string
  redirectUri: string
  params: Params
  res: LightMyRequestResponse
}

/** Consents (allow) and returns the code from the redirect. */
export async function obtainCode(member: Member, client: { client_id: string }, overrides: Params = {}, p: Pkce = pkce()): Promise<CodeResult> {
  const params = authorizeParams(client, p, overrides)
  const res = await postConsent(member, params)
  if (res.statusCode !== 303) throw new Error(`consent answered ${res.statusCode}: ${res.body.slice(0, 300)}`)
  const loc = location(res)
  const code = loc.searchParams.get('code')
  if (!code) throw new Error(`no code in ${loc.href}`)
  return { code, verifier: p.verifier, redirectUri: params.redirect_uri ?? REDIRECT, params, res }
}

export function basic(id: string, secret: string): string {
  return 'Basic ' + Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')
}

/** POST /api/oauth/token with a form body; `auth` adds a Basic header. */
export function tokenRequest(app: FastifyInstance, body: Params, opts: { auth?: { id: string; secret: string }; headers?: Record<string, string>; remoteAddress?: string; extra?: [string, string][] } = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(opts.auth ? { authorization: basic(opts.auth.id, opts.auth.secret) } : {}), ...(opts.headers ?? {}) },
    payload: query(body, opts.extra),
    ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
  })
}

/** Redeems a code with client_secret_basic. */
export function redeem(app: FastifyInstance, client: TestClient, c: CodeResult, overrides: Params = {}) {
  return tokenRequest(app, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: c.redirectUri, resource: API_RESOURCE, ...overrides }, { auth: { id: client.client_id, secret: client.client_secret } })
}

export interface Tokens {
  access_token: string
  refresh_token: string
  token_type: string
  expires_in: number
  scope: string
}

/** The whole flow: consent, then the token request. */
export async function obtainTokens(app: FastifyInstance, member: Member, client: TestClient, overrides: Params = {}): Promise<Tokens> {
  const c = await obtainCode(member, client, overrides)
  const res = await redeem(app, client, c, overrides.resource !== undefined ? { resource: overrides.resource } : {})
  if (res.statusCode !== 200) throw new Error(`token answered ${res.statusCode}: ${res.body}`)
  return JSON.parse(res.body) as Tokens
}

/** A request to the REST API (the resource server) with a bearer token. */
export function api(app: FastifyInstance, token: string | null, opts: InjectOptions = {}, scheme = 'Bearer') {
  return app.inject({ method: 'GET', url: '/api/v1/accounts', ...opts, headers: { ...(token !== null ? { authorization: `${scheme} ${token}` } : {}), ...(opts.headers ?? {}) } } as InjectOptions)
}

export async function countRows(app: FastifyInstance, table: 'oauth_codes' | 'oauth_tokens' | 'oauth_grants' | 'oauth_clients'): Promise<number> {
  const res = await sql<{ n: string | number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(app.db)
  return Number(res.rows[0].n)
}

export function body<T = any>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T
}

/** Asserts shape of an RFC 6749 error (the caller checks status and code). */
export function oauthError(res: LightMyRequestResponse): { error: string; error_description?: string } {
  if (!String(res.headers['content-type'] ?? '').includes('application/json')) throw new Error(`not JSON (${res.headers['content-type']}): ${res.body.slice(0, 300)}`)
  return JSON.parse(res.body)
}

/**
 * The setup most OAuth suites share: one harness per file, and before each test an empty database
 * with an organization, its admin and a confidential client, handed to `use`.
 */
export function oauthHarnessPerFile(target: TargetName, use: (h: OAuthHarness, admin: Member, client: TestClient) => void): void {
  let h: OAuthHarness
  beforeAll(async () => {
    h = await createHarness(target)
  })
  afterAll(() => closeHarness(h))
  beforeEach(async () => {
    await resetHarness(h)
    const admin = await createOrgWithAdmin(h.app)
    use(h, admin, await confidentialClient(h.app, admin.orgId))
  })
}
