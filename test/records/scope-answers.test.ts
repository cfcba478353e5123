/**
 * No answer shows what the caller's scopes could not read through GET: for every scope set a client
 * can hold, every REST write (create, change, comment, escalate, convert) and the webhook delivery
 * log answer exactly what GET shows that token, or only the record's id and times when GET is refused.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { targets } from '../helpers/databases.ts'
import { json, type Member } from '../helpers/build-app.ts'
import { createVia, minimalBodies, topLevelKinds } from '../helpers/samples.ts'
import { api, oauthHarnessPerFile, obtainTokens, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'
import { kindsByName } from '../../src/records/contracts.ts'

const SCOPE_SETS = ['crm:write', 'crm:write erp:read', 'crm:write crm:read', 'crm:write crm:read erp:read'] as const
const STUB = ['created_at', 'id', 'updated_at']

/** A field each kind's PATCH can change. */
const PATCHES: Record<string, Record<string, unknown>> = {
  account: { name: 'Renamed', annual_revenue: 1000 },
  contact: { last_name: 'Renamed' },
  lead: { last_name: 'Renamed' },
  opportunity: { name: 'Renamed', amount: 52000.5, stage: 'proposal' },
  product: { name: 'Renamed', unit_price: 99.5 },
  case: { subject: 'Renamed' },
  activity: { subject: 'Renamed' },
}

describe.each(await targets())('answers as the scopes allow on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  const tokens: Record<string, string> = {}

  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))
  beforeEach(async () => {
    for (const scope of SCOPE_SETS) tokens[scope] = (await obtainTokens(h.app, admin, client, { scope })).access_token
  })

  /** What GET shows this token of a record, or null when GET is refused. */
  async function seenByGet(app: FastifyInstance, token: string, path: string): Promise<Record<string, unknown> | null> {
    const res = await api(app, token, { url: path })
    if (res.statusCode === 403) return null
    expect(res.statusCode, res.body).toBe(200)
    return json(res)
  }

  /** The rule: a write's answer is what GET shows, or the stub when GET is refused. */
  async function expectAnswerAsGet(token: string, path: string, answer: Record<string, unknown>, why: string) {
    const seen = await seenByGet(h.app, token, path)
    if (seen === null) expect(Object.keys(answer).sort(), why).toEqual(STUB)
    else expect(answer, why).toEqual(seen)
  }

  it.each(SCOPE_SETS)('creates and changes every kind with %s and sees no more than GET', async (scope) => {
    const token = tokens[scope]
    for (const kind of topLevelKinds) {
      const path = `/api/v1/${kindsByName[kind].path}`
      const created = await api(h.app, token, { method: 'POST', url: path, payload: { ...minimalBodies[kind], ...PATCHES[kind] } })
      expect(created.statusCode, created.body).toBe(201)
      await expectAnswerAsGet(token, `${path}/${json(created).id}`, json(created), `${scope} POST ${kind}`)

      const patched = await api(h.app, token, { method: 'PATCH', url: `${path}/${json(created).id}`, payload: PATCHES[kind] })
      expect(patched.statusCode, patched.body).toBe(200)
      await expectAnswerAsGet(token, `${path}/${json(created).id}`, json(patched), `${scope} PATCH ${kind}`)
    }
  })

  it.each(SCOPE_SETS)('batch writes and upserts by src_id answer as GET with %s', async (scope) => {
    const token = tokens[scope]
    for (const kind of topLevelKinds) {
      const path = `/api/v1/${kindsByName[kind].path}`
      const body = { ...minimalBodies[kind], ...PATCHES[kind] }
      const created = await api(h.app, token, { method: 'POST', url: `${path}/batch`, payload: { operation: 'create', records: [body, body] } })
      expect(created.statusCode, created.body).toBe(200)
      for (const record of json(created).data) await expectAnswerAsGet(token, `${path}/${record.id}`, record, `${scope} batch create ${kind}`)
      const ids = json(created).data.map((r: { id: string }) => r.id)
      const updated = await api(h.app, token, { method: 'POST', url: `${path}/batch`, payload: { operation: 'update', records: ids.map((id: string) => ({ id, ...PATCHES[kind] })) } })
      expect(updated.statusCode, updated.body).toBe(200)
      for (const record of json(updated).data) await expectAnswerAsGet(token, `${path}/${record.id}`, record, `${scope} batch update ${kind}`)
      const srcId = `scope-${scope}-${kind}`.replace(/[^a-z0-9-]/gi, '-')
      for (const status of [201, 200]) {
        const upserted = await api(h.app, token, { method: 'PUT', url: `${path}/by-src-id/${srcId}`, payload: body })
        expect(upserted.statusCode, upserted.body).toBe(status)
        await expectAnswerAsGet(token, `${path}/${json(upserted).id}`, json(upserted), `${scope} upsert ${kind}`)
      }
    }
  })

  it('hides amounts and unreadable kinds in writes, concretely', async () => {
    const opp = await createVia(admin, 'opportunity', { amount: 75000 })
    const product = await createVia(admin, 'product', { unit_price: 12 })
    const writeOnly = await api(h.app, tokens['crm:write'], { method: 'PATCH', url: `/api/v1/products/${product.id}`, payload: { name: 'Secret SKU' } })
    expect(json(writeOnly)).toEqual({ id: product.id, created_at: product.created_at, updated_at: expect.any(String) })
    const noErp = await api(h.app, tokens['crm:write crm:read'], { method: 'PATCH', url: `/api/v1/opportunities/${opp.id}`, payload: { name: 'Big deal' } })
    expect(json(noErp)).toMatchObject({ name: 'Big deal', amount: null })
    const noErpProduct = await api(h.app, tokens['crm:write crm:read'], { method: 'PATCH', url: `/api/v1/products/${product.id}`, payload: { name: 'x' } })
    expect(Object.keys(json(noErpProduct)).sort()).toEqual(STUB)
  })

  it('a batch answers each record as its token may see it, and its events keep what the registrant may see', async () => {
    await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://93.184.215.14/hook', events: ['opportunity.created', 'opportunity.updated'] } })
    const records = [{ name: 'Batch A', amount: 75000 }, { name: 'Batch B', amount: 12.5 }]
    const noErp = await api(h.app, tokens['crm:write crm:read'], { method: 'POST', url: '/api/v1/opportunities/batch', payload: { operation: 'create', records } })
    expect(noErp.statusCode, noErp.body).toBe(200)
    expect(json(noErp).data.map((r: Record<string, unknown>) => [r.name, r.amount])).toEqual([['Batch A', null], ['Batch B', null]])
    const withErp = await api(h.app, tokens['crm:write crm:read erp:read'], { method: 'POST', url: '/api/v1/opportunities/batch', payload: { operation: 'create', records } })
    expect(json(withErp).data.map((r: Record<string, unknown>) => r.amount)).toEqual(['75000.00', '12.50'])
    const changes = json(noErp).data.map((r: { id: string }) => ({ id: r.id, name: 'Changed' }))
    const updated = await api(h.app, tokens['crm:write crm:read'], { method: 'POST', url: '/api/v1/opportunities/batch', payload: { operation: 'update', records: changes } })
    expect(json(updated).data.map((r: Record<string, unknown>) => [r.name, r.amount])).toEqual([['Changed', null], ['Changed', null]])
    // The stored event bodies carry the amounts whoever wrote: hiding them in an answer hid nothing there.
    const stored = await admin.request({ method: 'GET', url: '/api/v1/webhooks' })
    const deliveries = await admin.request({ method: 'GET', url: `/api/v1/webhooks/${json(stored).data[0].id}/deliveries?limit=100` })
    const amounts = json(deliveries).data.map((d: { payload: { type: string; data: { object: { amount: string } } } }) => `${d.payload.type} ${d.payload.data.object.amount}`)
    expect(amounts.sort()).toEqual(['opportunity.created 12.50', 'opportunity.created 12.50', 'opportunity.created 75000.00', 'opportunity.created 75000.00', 'opportunity.updated 12.50', 'opportunity.updated 75000.00'])
    expect(json(await api(h.app, tokens['crm:write'], { method: 'POST', url: '/api/v1/opportunities/batch', payload: { operation: 'create', records } })).data.map((r: object) => Object.keys(r).sort())).toEqual([STUB, STUB])
  })

  it.each(SCOPE_SETS)('special actions and comments answer as GET with %s', async (scope) => {
    const token = tokens[scope]
    const kase = await createVia(admin, 'case')
    const comment = await api(h.app, token, { method: 'POST', url: `/api/v1/cases/${kase.id}/comments`, payload: { body: 'Private note' } })
    expect(comment.statusCode, comment.body).toBe(201)
    await expectAnswerAsGet(token, `/api/v1/case-comments/${json(comment).id}`, json(comment), `${scope} comment`)

    const escalated = await api(h.app, token, { method: 'POST', url: `/api/v1/cases/${kase.id}/escalate` })
    expect(escalated.statusCode, escalated.body).toBe(200)
    await expectAnswerAsGet(token, `/api/v1/cases/${kase.id}`, json(escalated), `${scope} escalate`)

    const lead = await createVia(admin, 'lead')
    const converted = await api(h.app, token, { method: 'POST', url: `/api/v1/leads/${lead.id}/convert`, payload: { create_opportunity: true } })
    expect(converted.statusCode, converted.body).toBe(200)
    const parts = json(converted)
    await expectAnswerAsGet(token, `/api/v1/leads/${lead.id}`, parts.lead, `${scope} convert lead`)
    for (const [key, kind] of [['account', 'accounts'], ['contact', 'contacts'], ['opportunity', 'opportunities']] as const) {
      await expectAnswerAsGet(token, `/api/v1/${kind}/${parts[key].id}`, parts[key], `${scope} convert ${key}`)
    }
  })

  it('the delivery log shows payloads as the reader may see them', async () => {
    const hook = json(await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://93.184.215.14/hook', events: ['opportunity.created', 'opportunity.updated', 'opportunity.stage_changed'] } }))
    const opp = await createVia(admin, 'opportunity', { amount: 75000 })
    await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${opp.id}`, payload: { amount: 80000, stage: 'proposal' } })
    const deliveriesOf = async (token: string | null) => {
      const res = token ? await api(h.app, token, { url: `/api/v1/webhooks/${hook.id}/deliveries` }) : await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries` })
      expect(res.statusCode, res.body).toBe(200)
      return json(res).data as Array<{ payload: { type: string; data: { object: Record<string, unknown>; previous?: Record<string, unknown> } } }>
    }
    // The stored bodies carry the amounts (the registrant may read them)...
    const full = await deliveriesOf(null)
    expect(full).toHaveLength(3)
    expect(full.map((d) => d.payload.data.object.amount)).toEqual(['80000.00', '80000.00', '75000.00'])
    // ...and a reader without erp:read sees them as GET would show the record: amounts null, old amounts too.
    for (const d of await deliveriesOf(tokens['crm:write crm:read'])) {
      expect(d.payload.data.object.amount, d.payload.type).toBeNull()
      if (d.payload.data.previous && 'amount' in d.payload.data.previous) expect(d.payload.data.previous.amount).toBeNull()
      expect(d.payload.data.object.name).toBe('Initech renewal')
    }
    const withErp = await deliveriesOf(tokens['crm:write crm:read erp:read'])
    expect(withErp.map((d) => d.payload.data.object.amount)).toEqual(['80000.00', '80000.00', '75000.00'])
  })

  it('a webhook delivers records, so registering or re-pointing one needs crm:read as well as crm:write', async () => {
    const body = { url: 'https://93.184.215.14/hook', events: ['contact.created'] }
    const refused = await api(h.app, tokens['crm:write'], { method: 'POST', url: '/api/v1/webhooks', payload: body })
    expect(refused.statusCode).toBe(403)
    expect(json(refused).code).toBe('insufficient_scope')
    const created = await api(h.app, tokens['crm:write crm:read'], { method: 'POST', url: '/api/v1/webhooks', payload: body })
    expect(created.statusCode, created.body).toBe(201)
    const repoint = await api(h.app, tokens['crm:write'], { method: 'PATCH', url: `/api/v1/webhooks/${json(created).id}`, payload: { url: 'https://93.184.215.15/elsewhere' } })
    expect(repoint.statusCode).toBe(403)
    // Deleting needs no read.
    expect((await api(h.app, tokens['crm:write'], { method: 'DELETE', url: `/api/v1/webhooks/${json(created).id}` })).statusCode).toBe(204)
  })
})
