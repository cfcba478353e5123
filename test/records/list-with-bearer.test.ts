/**
 * A record list called with a bearer token runs as one statement (records/list-with-bearer.ts) and
 * answers exactly what the two-step check answers: for every refused token, the list's answer
 * equals the count route's (which still looks the token up first), and the scope rules (403s,
 * amounts null without erp:read) and their order against an invalid query stay as they were.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { targets } from '../helpers/databases.ts'
import { addMember, json, type Member } from '../helpers/build-app.ts'
import { api, MCP_RESOURCE, obtainTokens, oauthHarnessPerFile, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'

const LIST = '/api/v1/opportunities'
const COUNT = '/api/v1/opportunities/count'

/** What a client sees of a refusal: status, challenge and problem body (its instance names the path). */
function refusal(res: LightMyRequestResponse) {
  const { instance: _instance, ...problem } = json(res)
  return { status: res.statusCode, challenge: res.headers['www-authenticate'], problem }
}

describe.each(await targets())('bearer lists in one statement on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  let all: string

  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))
  beforeEach(async () => {
    all = (await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write erp:read' })).access_token
    for (const amount of [1000, 52000.5]) expect((await api(h.app, all, { method: 'POST', url: LIST, payload: { name: `Deal ${amount}`, amount } })).statusCode).toBe(201)
  })

  /** The list refuses this token as the two-step count route does, with and without query errors. */
  async function expectRefusedAsTwoStep(token: string, status: 401 | 403) {
    for (const query of ['?limit=10', '?sort=-amount', '?limit=oops']) {
      const listed = await api(h.app, token, { url: `${LIST}${query}` })
      const counted = await api(h.app, token, { url: `${COUNT}${query === '?limit=oops' ? '?stage=nope' : ''}` })
      expect(listed.statusCode, `${query}: ${listed.body}`).toBe(status)
      expect(refusal(listed), query).toEqual(refusal(counted))
    }
  }

  it('reads the token and the page in one statement', async () => {
    const spy = vi.spyOn(h.app.db, 'executeQuery')
    try {
      const res = await api(h.app, all, { url: `${LIST}?limit=10` })
      expect(res.statusCode).toBe(200)
      // Background work (the journal's sequencer) may query meanwhile: count what this request read.
      const reads = spy.mock.calls.map((c) => (c[0] as { sql: string }).sql).filter((sql) => sql.includes('oauth_tokens') || sql.includes('opportunities'))
      expect(reads).toHaveLength(1)
      expect(reads[0]).toContain('oauth_tokens')
      expect(reads[0]).toContain('FROM opportunities')
    } finally {
      spy.mockRestore()
    }
  })

  it('unknown, revoked, expired, other-resource and refresh tokens: 401 invalid_token as before', async () => {
    await expectRefusedAsTwoStep('crm_at_' + 'A'.repeat(43), 401)
    await expectRefusedAsTwoStep('not-a-token', 401)
    const revoked = await obtainTokens(h.app, admin, client, { scope: 'crm:read' })
    const auth = 'Basic ' + Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')
    const rev = await h.app.inject({ method: 'POST', url: '/api/oauth/revoke', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: auth }, payload: `token=${revoked.access_token}` })
    expect(rev.statusCode).toBe(200)
    await expectRefusedAsTwoStep(revoked.access_token, 401)
    const mcp = await obtainTokens(h.app, admin, client, { scope: 'crm:read', resource: MCP_RESOURCE })
    await expectRefusedAsTwoStep(mcp.access_token, 401)
    await expectRefusedAsTwoStep(revoked.refresh_token, 401)
    const member = await addMember(h.app, admin.orgId)
    const removed = await obtainTokens(h.app, member, client, { scope: 'crm:read' })
    expect((await api(h.app, removed.access_token, { url: LIST })).statusCode).toBe(200)
    await h.app.db.deleteFrom('memberships').where('user_id', '=', member.userId).execute()
    await expectRefusedAsTwoStep(removed.access_token, 401)
    const expiring = await obtainTokens(h.app, admin, client, { scope: 'crm:read' })
    h.clock.advance(3600)
    await expectRefusedAsTwoStep(expiring.access_token, 401)
  })

  it('a token without crm:read: 403 insufficient_scope as before', async () => {
    const writeOnly = (await obtainTokens(h.app, admin, client, { scope: 'crm:write erp:read' })).access_token
    await expectRefusedAsTwoStep(writeOnly, 403)
  })

  it('without erp:read: amounts read as null, sorting or filtering by them is 403 with the step-up challenge', async () => {
    const crm = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
    const seen = json(await api(h.app, crm, { url: LIST }))
    expect(seen.data.map((r: { amount: unknown }) => r.amount)).toEqual([null, null])
    const full = json(await api(h.app, all, { url: LIST }))
    expect(full.data.map((r: { amount: unknown }) => r.amount).sort()).toEqual(['1000.00', '52000.50'].sort())
    expect(seen.data).toEqual(full.data.map((r: Record<string, unknown>) => ({ ...r, amount: null })))
    // The statement reads amounts as null itself (record-sql.ts): on sorted and enumeration-sorted pages too.
    for (const query of ['?sort=name', '?sort=-stage', '?sort=close_date&limit=1', '?stage=prospecting']) {
      const page = json(await api(h.app, crm, { url: `${LIST}${query}` }))
      const whole = json(await api(h.app, all, { url: `${LIST}${query}` }))
      expect(page.data.length, query).toBeGreaterThan(0)
      expect(page, query).toEqual({ ...whole, data: whole.data.map((r: Record<string, unknown>) => ({ ...r, amount: null })) })
    }
    const sorted = await api(h.app, crm, { url: `${LIST}?sort=-amount` })
    const filtered = await api(h.app, crm, { url: `${LIST}?amount%5Bgte%5D=1` })
    const counted = await api(h.app, crm, { url: `${COUNT}?amount%5Bgte%5D=1` })
    expect(sorted.statusCode).toBe(403)
    expect(refusal(sorted)).toEqual(refusal(counted))
    expect(refusal(filtered)).toEqual(refusal(counted))
    // an invalid query comes before the step-up, as for the count route
    expect((await api(h.app, crm, { url: `${LIST}?sort=-amount&limit=oops` })).statusCode).toBe(400)
    const withErp = await api(h.app, all, { url: `${LIST}?sort=-amount` })
    expect(json(withErp).data.map((r: { amount: string }) => r.amount)).toEqual(['52000.50', '1000.00'])
  })
})
