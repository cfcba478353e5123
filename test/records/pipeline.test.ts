/**
 * GET /api/v1/opportunities/pipeline: counts and amount totals per stage in pipeline order, every
 * stage present, amounts only for callers who may read them, one organization's opportunities only.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'
import { api, oauthHarnessPerFile, obtainTokens, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'

const PIPELINE_ORDER = ['prospecting', 'qualification', 'needs_analysis', 'proposal', 'negotiation', 'closed_won', 'closed_lost']

describe.each(await targets())('the pipeline summary on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient

  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))
  beforeEach(async () => {
    await createVia(admin, 'opportunity', { name: 'A', stage: 'proposal', amount: '1000.25' })
    await createVia(admin, 'opportunity', { name: 'B', stage: 'proposal', amount: '250.50' })
    await createVia(admin, 'opportunity', { name: 'C', stage: 'proposal', amount: '99.99', currency: 'EUR' })
    await createVia(admin, 'opportunity', { name: 'D', stage: 'closed_won', amount: '5000' })
    await createVia(admin, 'opportunity', { name: 'E', stage: 'negotiation' })
  })

  const stageOf = (body: any, stage: string) => body.stages.find((s: any) => s.stage === stage)

  it('lists every stage in pipeline order with counts and exact totals per currency', async () => {
    const res = await admin.request({ method: 'GET', url: '/api/v1/opportunities/pipeline' })
    expect(res.statusCode, res.body).toBe(200)
    const body = json(res)
    expect(body.stages.map((s: any) => s.stage)).toEqual(PIPELINE_ORDER)
    expect(body.total_count).toBe(5)
    expect(body.amounts_visible).toBe(true)
    expect(stageOf(body, 'proposal')).toEqual({
      stage: 'proposal',
      count: 3,
      amounts: [
        { currency: 'EUR', total: '99.99' },
        { currency: 'USD', total: '1250.75' },
      ],
    })
    // Without amounts a stage has a count and no totals; an empty stage is still a column.
    expect(stageOf(body, 'negotiation')).toEqual({ stage: 'negotiation', count: 1, amounts: [] })
    expect(stageOf(body, 'prospecting')).toEqual({ stage: 'prospecting', count: 0, amounts: [] })
  })

  it('follows a stage change at once', async () => {
    const opp = json(await admin.request({ method: 'GET', url: '/api/v1/opportunities?stage=closed_won' })).data[0]
    const patch = await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${opp.id}`, payload: { stage: 'closed_lost' } })
    expect(patch.statusCode, patch.body).toBe(200)
    const body = json(await admin.request({ method: 'GET', url: '/api/v1/opportunities/pipeline' }))
    expect(stageOf(body, 'closed_won')).toEqual({ stage: 'closed_won', count: 0, amounts: [] })
    expect(stageOf(body, 'closed_lost')).toEqual({ stage: 'closed_lost', count: 1, amounts: [{ currency: 'USD', total: '5000.00' }] })
  })

  it('gives a token without erp:read the counts and no amounts, and refuses one without crm:read', async () => {
    const noErp = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
    const res = await api(h.app, noErp, { url: '/api/v1/opportunities/pipeline' })
    expect(res.statusCode, res.body).toBe(200)
    const body = json(res)
    expect(body.amounts_visible).toBe(false)
    expect(body.stages.every((s: any) => s.amounts === null)).toBe(true)
    expect(stageOf(body, 'proposal').count).toBe(3)

    const withErp = (await obtainTokens(h.app, admin, client, { scope: 'crm:read erp:read' })).access_token
    const full = json(await api(h.app, withErp, { url: '/api/v1/opportunities/pipeline' }))
    expect(full.amounts_visible).toBe(true)
    expect(stageOf(full, 'closed_won').amounts).toEqual([{ currency: 'USD', total: '5000.00' }])

    const writeOnly = (await obtainTokens(h.app, admin, client, { scope: 'crm:write' })).access_token
    const refused = await api(h.app, writeOnly, { url: '/api/v1/opportunities/pipeline' })
    expect(refused.statusCode).toBe(403)
    expect(json(refused).code).toBe('insufficient_scope')
  })

  it("counts only the caller's organization", async () => {
    const other = await createOrgWithAdmin(h.app, 'Other')
    await createVia(other, 'opportunity', { name: 'Elsewhere', stage: 'proposal', amount: '7' })
    const mine = json(await admin.request({ method: 'GET', url: '/api/v1/opportunities/pipeline' }))
    expect(stageOf(mine, 'proposal').count).toBe(3)
    const theirs = json(await other.request({ method: 'GET', url: '/api/v1/opportunities/pipeline' }))
    expect(theirs.total_count).toBe(1)
    expect(stageOf(theirs, 'proposal').amounts).toEqual([{ currency: 'USD', total: '7.00' }])
  })

  it('is not mistaken for a record id, and the record route still answers ids', async () => {
    const opp = json(await admin.request({ method: 'GET', url: '/api/v1/opportunities?limit=1' })).data[0]
    expect((await admin.request({ method: 'GET', url: `/api/v1/opportunities/${opp.id}` })).statusCode).toBe(200)
    expect((await admin.request({ method: 'GET', url: '/api/v1/opportunities/pipelines' })).statusCode).toBe(400)
  })
})
