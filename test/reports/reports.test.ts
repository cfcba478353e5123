/**
 * `GET /api/v1/reports/*` on both databases: each chart's aggregate against records written through
 * the API (counts, exact amounts per currency, every stage, month and week present), the owner and
 * period filters, members' names, amounts hidden without erp:read, and refusals as problems.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { addMember, json, type Member } from '../helpers/build-app.ts'
import { api, oauthHarnessPerFile, obtainTokens, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'

describe.each(await targets())('Reports on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  let rep: Member
  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))
  const today = new Date().toISOString().slice(0, 10)

  async function create(path: string, body: Record<string, unknown>) {
    const res = await admin.request({ method: 'POST', url: `/api/v1/${path}`, payload: body })
    expect(res.statusCode, res.body).toBe(201)
    return json(res)
  }
  async function get(url: string, m: Member = admin) {
    const res = await m.request({ url })
    expect(res.statusCode, res.body).toBe(200)
    return json(res)
  }

  beforeEach(async () => {
    rep = await addMember(h.app, admin.orgId)
    await create('opportunities', { name: 'A', stage: 'proposal', amount: '1000.10', close_date: '2026-03-10', owner_id: admin.userId })
    await create('opportunities', { name: 'B', stage: 'proposal', amount: '0.20', close_date: '2026-03-20', owner_id: rep.userId })
    await create('opportunities', { name: 'C', stage: 'proposal', amount: '500.00', currency: 'EUR', close_date: '2026-04-01', owner_id: rep.userId })
    await create('opportunities', { name: 'D', stage: 'closed_won', amount: '250.00', close_date: '2026-04-15', owner_id: rep.userId })
    await create('opportunities', { name: 'E', stage: 'closed_lost', amount: '75.50', close_date: '2026-05-02' })
    await create('opportunities', { name: 'Outside', stage: 'closed_won', amount: '9.00', close_date: '2025-01-01' })
    const closed = await create('cases', { subject: 'Printer', priority: 'high', owner_id: rep.userId })
    expect((await admin.request({ method: 'PATCH', url: `/api/v1/cases/${closed.id}`, payload: { status: 'closed' } })).statusCode).toBe(200)
    await create('cases', { subject: 'Login', priority: 'critical' })
    await create('activities', { kind: 'call', subject: 'Call 1', owner_id: rep.userId, status: 'completed' })
    await create('activities', { kind: 'call', subject: 'Call 2', owner_id: rep.userId })
    await create('activities', { kind: 'email', subject: 'Mail 1', owner_id: admin.userId })
  })

  it('gives the pipeline by stage and owner, exact amounts per currency, every stage in order', async () => {
    const r = await get('/api/v1/reports/pipeline?from=2026-01-01&to=2026-06-30')
    expect(r.period).toEqual({ from: '2026-01-01', to: '2026-06-30' })
    expect(r.amounts_visible).toBe(true)
    expect(r.stages.map((s: any) => s.stage)).toEqual(['prospecting', 'qualification', 'needs_analysis', 'proposal', 'negotiation', 'closed_won', 'closed_lost'])
    const proposal = r.stages.find((s: any) => s.stage === 'proposal')
    expect(proposal.count).toBe(3)
    expect(proposal.amounts).toEqual([{ currency: 'EUR', total: '500.00' }, { currency: 'USD', total: '1000.30' }])
    expect(proposal.by_owner).toEqual(
      expect.arrayContaining([
        { owner_id: admin.userId, count: 1, amounts: [{ currency: 'USD', total: '1000.10' }] },
        { owner_id: rep.userId, count: 2, amounts: [{ currency: 'EUR', total: '500.00' }, { currency: 'USD', total: '0.20' }] },
      ]),
    )
    expect(r.stages.find((s: any) => s.stage === 'closed_won').count).toBe(1)
    expect(r.owners.map((o: any) => o.id).sort()).toEqual([admin.userId, rep.userId].sort())
    expect(r.owners.every((o: any) => typeof o.name === 'string' && o.email.includes('@'))).toBe(true)
    // One owner, and a period that ends before April.
    const mine = await get(`/api/v1/reports/pipeline?from=2026-01-01&to=2026-03-31&owner_id=${rep.userId}`)
    expect(mine.stages.filter((s: any) => s.count > 0).map((s: any) => [s.stage, s.count])).toEqual([['proposal', 1]])
  })

  it('counts won and lost by month of the close date, every month of the period listed', async () => {
    const r = await get('/api/v1/reports/won-lost?from=2026-02-15&to=2026-05-31')
    expect(r.months.map((m: any) => [m.month, m.won, m.lost])).toEqual([
      ['2026-02-01', 0, 0],
      ['2026-03-01', 0, 0],
      ['2026-04-01', 1, 0],
      ['2026-05-01', 0, 1],
    ])
    expect(r.months[2].won_amounts).toEqual([{ currency: 'USD', total: '250.00' }])
    expect(r.months[3].lost_amounts).toEqual([{ currency: 'USD', total: '75.50' }])
  })

  it('counts cases opened and closed by week and priority, and activities per owner with names', async () => {
    const cases = await get('/api/v1/reports/cases')
    expect(cases.period.to).toBe(today)
    expect(cases.weeks.length).toBeGreaterThanOrEqual(52)
    const thisWeek = cases.weeks[cases.weeks.length - 1]
    expect([thisWeek.opened, thisWeek.closed]).toEqual([2, 1])
    expect(cases.weeks.slice(0, -1).every((w: any) => w.opened === 0 && w.closed === 0)).toBe(true)
    expect(cases.priorities).toEqual([
      { priority: 'critical', opened: 1, closed: 0 },
      { priority: 'high', opened: 1, closed: 1 },
      { priority: 'medium', opened: 0, closed: 0 },
      { priority: 'low', opened: 0, closed: 0 },
    ])
    const mine = await get(`/api/v1/reports/cases?owner_id=${rep.userId}`)
    expect(mine.priorities.map((p: any) => p.opened)).toEqual([0, 1, 0, 0])

    const acts = await get('/api/v1/reports/activities')
    expect(acts.by_owner).toEqual([
      { owner_id: rep.userId, total: 2, completed: 1, by_kind: { call: 2 } },
      { owner_id: admin.userId, total: 1, completed: 0, by_kind: { email: 1 } },
    ])
    expect(acts.owners.find((o: any) => o.id === rep.userId).email).toBe(rep.email)
    const old = await get('/api/v1/reports/activities?from=2025-01-01&to=2025-12-31')
    expect(old.by_owner).toEqual([])
  })

  it('hides amounts without erp:read and refuses bad periods and missing scopes', async () => {
    const read = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
    const res = await api(h.app, read, { url: '/api/v1/reports/pipeline?from=2026-01-01&to=2026-06-30' })
    expect(res.statusCode, res.body).toBe(200)
    const body = json(res)
    expect(body.amounts_visible).toBe(false)
    expect(body.stages.find((s: any) => s.stage === 'proposal')).toMatchObject({ count: 3, amounts: null })
    expect(body.stages.flatMap((s: any) => s.by_owner).every((o: any) => o.amounts === null)).toBe(true)
    const wl = json(await api(h.app, read, { url: '/api/v1/reports/won-lost?from=2026-04-01&to=2026-04-30' }))
    expect(wl.months[0]).toMatchObject({ won: 1, won_amounts: null, lost_amounts: null })
    const write = (await obtainTokens(h.app, admin, client, { scope: 'crm:write' })).access_token
    expect((await api(h.app, write, { url: '/api/v1/reports/cases' })).statusCode).toBe(403)
    expect((await api(h.app, null, { url: '/api/v1/reports/cases' })).statusCode).toBe(401)
    for (const query of ['from=2026-05-01&to=2026-04-01', 'from=2020-01-01&to=2026-01-01', 'from=yesterday', 'owner_id=nobody', 'colour=red']) {
      const bad = await admin.request({ url: `/api/v1/reports/activities?${query}` })
      expect(bad.statusCode, query).toBe(400)
      expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/)
    }
  })
})
