/**
 * Standard picklists (docs/custom-fields.md, Standard picklists): built-in fields such as account
 * industry and type have options administrators edit; API writes must send one of them (single,
 * PATCH, batch), stored values outside them stay and are listed; `[in]` filters on them; the
 * pipeline takes the opportunity list's filters (a board's view). On both databases.
 */
import { describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { addMember, json, type Member } from '../helpers/build-app.ts'
import { api, obtainTokens, oauthHarnessPerFile, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'

const LISTS = '/api/v1/picklists'

describe.each(await targets())('standard picklists on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient

  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))

  const account = (body: Record<string, unknown>) => admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Acme', ...body } })

  it('start with their default options and are listed per kind', async () => {
    const all = json(await admin.request({ url: LISTS })).data as { kind: string; field: string; options: string[]; customized: boolean }[]
    expect(all.map((p) => `${p.kind}.${p.field}`)).toEqual(
      expect.arrayContaining(['account.industry', 'account.type', 'contact.lead_source', 'lead.source', 'lead.industry', 'lead.rating', 'opportunity.type', 'opportunity.lead_source', 'case.origin', 'case.type', 'product.family']),
    )
    const industry = all.find((p) => p.kind === 'account' && p.field === 'industry')!
    expect(industry.customized).toBe(false)
    expect(industry.options).toContain('Technology')
    expect(json(await admin.request({ url: `${LISTS}?kind=case` })).data.map((p: { field: string }) => p.field)).toEqual(['origin', 'type'])
    expect((await admin.request({ url: `${LISTS}/account/website` })).statusCode).toBe(404)
  })

  it('refuse values outside the options on create, update and batch, and accept null', async () => {
    const ok = await account({ industry: 'Technology', type: 'Customer' })
    expect(ok.statusCode, ok.body).toBe(201)
    const bad = await account({ industry: 'Spaceships' })
    expect(bad.statusCode).toBe(400)
    expect(json(bad).code).toBe('validation_failed')
    expect(json(bad).errors[0].field).toBe('industry')
    expect(json(bad).errors[0].message).toMatch(/^must be one of the organization's options: Agriculture, /)

    const id = json(ok).id
    const patch = await admin.request({ method: 'PATCH', url: `/api/v1/accounts/${id}`, payload: { type: 'Pirate' } })
    expect(patch.statusCode).toBe(400)
    expect(json(patch).errors).toEqual([expect.objectContaining({ field: 'type' })])
    expect((await admin.request({ method: 'PATCH', url: `/api/v1/accounts/${id}`, payload: { type: null } })).statusCode).toBe(200)

    const batch = await admin.request({ method: 'POST', url: '/api/v1/accounts/batch', payload: { operation: 'create', records: [{ name: 'A', industry: 'Retail' }, { name: 'B', industry: 'Nope' }] } })
    expect(batch.statusCode).toBe(400)
    expect(json(batch).errors).toEqual([expect.objectContaining({ index: 1, field: 'records[1].industry' })])
    expect(json(await admin.request({ url: '/api/v1/accounts/count' })).count).toBe(1)
  })

  it('are edited by administrators; stored values outside them stay, can be listed, filtered and kept on other changes', async () => {
    const held = json(await account({ industry: 'Retail' })).id
    const put = await admin.request({ method: 'PUT', url: `${LISTS}/account/industry`, payload: { options: [' Wholesale ', 'Technology'] } })
    expect(put.statusCode, put.body).toBe(200)
    expect(json(put)).toMatchObject({ kind: 'account', field: 'industry', options: ['Wholesale', 'Technology'], customized: true })

    expect((await account({ industry: 'Wholesale' })).statusCode).toBe(201)
    expect((await account({ industry: 'Retail' })).statusCode).toBe(400)
    // The record holding a removed value keeps it, and other fields still change.
    const renamed = await admin.request({ method: 'PATCH', url: `/api/v1/accounts/${held}`, payload: { name: 'Renamed' } })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect(json(renamed).industry).toBe('Retail')

    const detail = json(await admin.request({ url: `${LISTS}/account/industry` }))
    expect(detail.values_outside_options).toEqual([{ value: 'Retail', records: 1 }])

    const listed = json(await admin.request({ url: '/api/v1/accounts?industry[in]=Retail,Wholesale&sort=name' }))
    expect(listed.data.map((a: { industry: string }) => a.industry)).toEqual(['Wholesale', 'Retail'])
    expect(json(await admin.request({ url: '/api/v1/accounts/count?industry[in]=Retail' })).count).toBe(1)

    const reset = await admin.request({ method: 'DELETE', url: `${LISTS}/account/industry` })
    expect(json(reset)).toMatchObject({ customized: false })
    expect(json(reset).options).toContain('Retail')
  })

  it('refuse bad options and members', async () => {
    for (const [options, field] of [
      [[], 'options'],
      [['A', 'A'], 'options[1]'],
      [['A, B'], 'options[0]'],
      [['   '], 'options[0]'],
    ] as const) {
      const res = await admin.request({ method: 'PUT', url: `${LISTS}/lead/source`, payload: { options } })
      expect(res.statusCode, JSON.stringify(options)).toBe(400)
      expect(json(res).errors.map((e: { field: string }) => e.field)).toContain(field)
    }
    const member = await addMember(h.app, admin.orgId, 'member')
    const refused = await member.request({ method: 'PUT', url: `${LISTS}/lead/source`, payload: { options: ['Web'] } })
    expect(refused.statusCode).toBe(403)
    expect(json(refused).code).toBe('admin_required')
    expect((await member.request({ url: LISTS })).statusCode).toBe(200)
    const readOnly = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
    expect((await api(h.app, readOnly, { url: `${LISTS}/lead/source` })).statusCode).toBe(200)
    expect((await api(h.app, readOnly, { method: 'DELETE', url: `${LISTS}/lead/source` })).statusCode).toBe(403)
  })

  it('converting a lead copies its values as they are, even outside the options', async () => {
    await admin.request({ method: 'PUT', url: `${LISTS}/lead/industry`, payload: { options: ['Mining'] } })
    const lead = json(await admin.request({ method: 'POST', url: '/api/v1/leads', payload: { last_name: 'Lovelace', company: 'Engines', industry: 'Mining' } }))
    await admin.request({ method: 'PUT', url: `${LISTS}/account/industry`, payload: { options: ['Technology'] } })
    const converted = await admin.request({ method: 'POST', url: `/api/v1/leads/${lead.id}/convert`, payload: {} })
    expect(converted.statusCode, converted.body).toBe(200)
  })

  it('the pipeline takes the opportunity list\'s filters', async () => {
    const acme = json(await account({})).id
    const other = json(await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Other' } })).id
    for (const [stage, account_id, type] of [
      ['proposal', acme, 'New Business'],
      ['proposal', other, 'New Business'],
      ['negotiation', acme, 'Existing Business - Renewal'],
    ]) {
      expect((await admin.request({ method: 'POST', url: '/api/v1/opportunities', payload: { name: 'Deal', stage, account_id, type, amount: '100' } })).statusCode).toBe(201)
    }
    const whole = json(await admin.request({ url: '/api/v1/opportunities/pipeline' }))
    expect(whole.total_count).toBe(3)
    const narrowed = json(await admin.request({ url: `/api/v1/opportunities/pipeline?account_id=${acme}&type[in]=New%20Business` }))
    expect(narrowed.total_count).toBe(1)
    expect(narrowed.stages.find((s: { stage: string }) => s.stage === 'proposal')).toMatchObject({ count: 1, amounts: [{ currency: 'USD', total: '100.00' }] })
    const unknown = await admin.request({ url: '/api/v1/opportunities/pipeline?stauts=x' })
    expect(unknown.statusCode).toBe(400)
  })
})
