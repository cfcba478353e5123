/**
 * Rate limits of /api/v1 and /mcp (docs/api.md, Rate limits): the RateLimit-Policy and RateLimit
 * fields of draft-ietf-httpapi-ratelimit-headers-11 on every authenticated answer, 429 rate_limited
 * with Retry-After past a quota, one budget per organization and one per API client within it, one
 * shared budget for two service processes on one PostgreSQL, a new window restoring the quota,
 * leases instead of a write per request, and no fields or limit when switched off.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { targets } from '../helpers/databases.ts'
import { appPerFile, buildTestApp, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { confidentialClient, MCP_RESOURCE, obtainTokens } from '../oauth/helpers.ts'
import { INITIALIZE, MCP_HEADERS } from '../mcp/helpers.ts'
import { ManualClock } from '../../src/shared/clock.ts'
import { openPostgres } from '../../src/db/connect.ts'
import { SESSION_COOKIE } from '../../src/orgs/session.service.ts'

const PER_ORG = 20
const PER_CLIENT = 12
const LIMITS = { RATE_LIMIT_PER_ORG: String(PER_ORG), RATE_LIMIT_PER_CLIENT: String(PER_CLIENT) }

// RFC 9651 Lists of String Items with Integer parameters, as the draft's sections 3 and 4 define them.
const POLICY = `"org";q=${PER_ORG};w=60, "client";q=${PER_CLIENT};w=60`
const LIMIT_FIELD = /^"org";r=(\d+);t=(\d+), "client";r=(\d+);t=(\d+)$/

interface Limit {
  org: number
  client: number
  t: number
}

function limitOf(res: LightMyRequestResponse): Limit {
  const m = LIMIT_FIELD.exec(String(res.headers.ratelimit))
  if (!m) throw new Error(`RateLimit field "${res.headers.ratelimit}" (status ${res.statusCode}) does not match ${LIMIT_FIELD}`)
  expect(m[2]).toBe(m[4])
  return { org: Number(m[1]), client: Number(m[3]), t: Number(m[2]) }
}

describe.each(await targets())('Rate limits on %s', (target) => {
  // 15 s into a window, so every answer's t is 45.
  const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000 + 15_000)
  const ctx = appPerFile(target, LIMITS, clock)
  let admin: Member

  const list = (m: Member = admin, url = '/api/v1/accounts') => m.request({ method: 'GET', url })
  const bearer = (token: string, opts: InjectOptions = {}) =>
    ctx.app.inject({ method: 'GET', url: '/api/v1/accounts', ...opts, headers: { authorization: `Bearer ${token}`, ...(opts.headers ?? {}) } } as InjectOptions)
  const mcp = (token: string) => ctx.app.inject({ method: 'POST', url: '/mcp', headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` }, payload: INITIALIZE })
  async function tokenOf(m: Member, resource?: string): Promise<string> {
    const client = await confidentialClient(ctx.app, m.orgId)
    return (await obtainTokens(ctx.app, m, client, resource ? { resource } : {})).access_token
  }
  async function expectRateLimited(res: LightMyRequestResponse, policy: 'org' | 'client') {
    expect(res.statusCode, res.body).toBe(429)
    expect(res.headers['content-type']).toContain('application/problem+json')
    expect(json(res)).toMatchObject({ status: 429, code: 'rate_limited' })
    expect(json(res).detail).toContain(`policy "${policy}"`)
    // draft §6: Retry-After no earlier than the end of the effective window.
    expect(res.headers['retry-after']).toBe('45')
    expect(res.headers['ratelimit-policy']).toBe(POLICY)
    expect(limitOf(res)[policy]).toBe(0)
  }

  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  it('sends RateLimit-Policy and RateLimit on REST answers (session and bearer, errors too) and lets other origins read them', async () => {
    const first = await list()
    expect(first.statusCode).toBe(200)
    expect(first.headers['ratelimit-policy']).toBe(POLICY)
    expect(limitOf(first)).toEqual({ org: PER_ORG - 1, client: PER_CLIENT - 1, t: 45 })
    expect(limitOf(await list())).toEqual({ org: PER_ORG - 2, client: PER_CLIENT - 2, t: 45 })
    const missing = await list(admin, '/api/v1/accounts/0190d3c0-0000-7000-8000-000000000000')
    expect(missing.statusCode).toBe(404)
    expect(limitOf(missing)).toEqual({ org: PER_ORG - 3, client: PER_CLIENT - 3, t: 45 })

    const viaBearer = await bearer(await tokenOf(admin), { headers: { origin: 'https://app.example.test' } })
    expect(viaBearer.statusCode, viaBearer.body).toBe(200)
    expect(viaBearer.headers['ratelimit-policy']).toBe(POLICY)
    // The organization's budget goes on; the API client has its own.
    expect(limitOf(viaBearer)).toEqual({ org: PER_ORG - 4, client: PER_CLIENT - 1, t: 45 })
    const exposed = String(viaBearer.headers['access-control-expose-headers']).split(/, */)
    expect(exposed).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy', 'retry-after']))

    // Unauthenticated answers belong to no budget and carry no fields.
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/v1/accounts' })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.headers.ratelimit).toBeUndefined()
  })

  it('sends the fields on /mcp answers, from the same budgets', async () => {
    expect((await list()).statusCode).toBe(200)
    const res = await mcp(await tokenOf(admin, MCP_RESOURCE))
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['ratelimit-policy']).toBe(POLICY)
    expect(limitOf(res)).toEqual({ org: PER_ORG - 2, client: PER_CLIENT - 1, t: 45 })
  })

  it('answers 429 rate_limited with Retry-After past a client quota, then past the organization quota; other organizations go on', async () => {
    for (let i = 0; i < PER_CLIENT; i++) expect((await list()).statusCode).toBe(200)
    await expectRateLimited(await list(), 'client')
    // A refused request spends nothing: the organization has PER_ORG - PER_CLIENT left, for another client.
    const token = await tokenOf(admin)
    const mcpToken = await tokenOf(admin, MCP_RESOURCE)
    for (let i = 0; i < PER_ORG - PER_CLIENT; i++) expect((await bearer(token)).statusCode).toBe(200)
    await expectRateLimited(await bearer(token), 'org')
    await expectRateLimited(await mcp(mcpToken), 'org')
    // Both quotas spent: the answer names the organization's.
    await expectRateLimited(await list(), 'org')

    const other = await createOrgWithAdmin(ctx.app)
    const theirs = await list(other)
    expect(theirs.statusCode).toBe(200)
    expect(limitOf(theirs)).toEqual({ org: PER_ORG - 1, client: PER_CLIENT - 1, t: 45 })
  })

  it('restores the quota when the window ends', async () => {
    for (let i = 0; i < PER_CLIENT; i++) await list()
    await expectRateLimited(await list(), 'client')
    clock.advance(60)
    const res = await list()
    expect(res.statusCode).toBe(200)
    expect(limitOf(res)).toEqual({ org: PER_ORG - 1, client: PER_CLIENT - 1, t: 45 })
  })

  it('takes quota in leases: no database write per request', async () => {
    for (let i = 0; i < 5; i++) expect((await list()).statusCode).toBe(200)
    const rows = (await sql<{ budget: string; leased: number }>`SELECT budget, leased FROM api_rate_leases WHERE budget LIKE ${`%${admin.orgId}%`} ORDER BY budget`.execute(ctx.app.db)).rows
    // A tenth of each quota per lease (2 units here), the next one taken when a quarter of the last is left.
    expect(rows.map((r) => [r.budget.split(':')[0], Number(r.leased)])).toEqual([
      ['org', 6],
      ['web', 6],
    ])
    clock.advance(2 * 3600)
    await ctx.app.runHousekeeping()
    expect((await sql`SELECT 1 FROM api_rate_leases`.execute(ctx.app.db)).rows).toHaveLength(0)
    clock.advance(-2 * 3600)
  })

  it.runIf(target === 'postgres')('shares one budget between two service processes on one PostgreSQL: together they admit at most the quota', async () => {
    const second = await openPostgres(ctx.tdb.url!)
    const other: FastifyInstance = await buildTestApp(second, LIMITS, clock)
    try {
      const via = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/api/v1/accounts', cookies: { [SESSION_COOKIE]: admin.session } })
      const answers: LightMyRequestResponse[] = []
      // Alternating, then racing: 3 x PER_CLIENT requests in all.
      for (let i = 0; i < PER_CLIENT; i++) answers.push(await via(i % 2 === 0 ? ctx.app : other))
      answers.push(...(await Promise.all(Array.from({ length: 2 * PER_CLIENT }, (_, i) => via(i % 2 === 0 ? ctx.app : other)))))
      const admitted = answers.filter((r) => r.statusCode === 200).length
      for (const res of answers) expect([200, 429]).toContain(res.statusCode)
      // Never more than the quota; at most one lease's units (2 here) left unused in a process.
      expect(admitted).toBeLessThanOrEqual(PER_CLIENT)
      expect(admitted).toBeGreaterThanOrEqual(PER_CLIENT - 2)
      expect(answers.filter((r) => r.statusCode === 200 && r.headers.ratelimit !== undefined)).toHaveLength(admitted)
    } finally {
      await other.close()
      await second.close()
    }
  })

  it('documents the fields and the 429 answer in the OpenAPI document', async () => {
    const doc = json((await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })))
    const list = doc.paths['/api/v1/accounts'].get
    expect(Object.keys(list.responses['200'].headers)).toEqual(expect.arrayContaining(['RateLimit-Policy', 'RateLimit']))
    expect(list.responses['429'].description).toContain('rate_limited')
    expect(Object.keys(list.responses['429'].headers)).toEqual(['RateLimit-Policy', 'RateLimit', 'Retry-After'])
    expect(Object.keys(list.responses['429'].content)).toEqual(['application/problem+json'])
    expect(doc.components.headers.RateLimitPolicy.description).toContain('draft-ietf-httpapi-ratelimit-headers-11')
  })

  it('sends no fields and limits nothing when RATE_LIMIT_ENABLED=false', async () => {
    const off = await buildTestApp(ctx.tdb.database, { ...LIMITS, RATE_LIMIT_PER_CLIENT: '1', RATE_LIMIT_ENABLED: 'false' }, clock)
    try {
      for (let i = 0; i < 3; i++) {
        const res = await off.inject({ method: 'GET', url: '/api/v1/accounts', cookies: { [SESSION_COOKIE]: admin.session } })
        expect(res.statusCode).toBe(200)
        expect(res.headers['ratelimit-policy']).toBeUndefined()
        expect(res.headers.ratelimit).toBeUndefined()
      }
    } finally {
      await off.close()
    }
  })
})
