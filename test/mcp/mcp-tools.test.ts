/**
 * The tools through the SDK client: bad input (wrong types, unknown kinds, oversize values, bad
 * paging) comes back as a tool error with REST's field messages and writes nothing; writes raise
 * the same change events as REST; amounts are hidden without erp:read; paging follows REST's rules.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { targets } from '../helpers/databases.ts'
import { call, callConfirmed, callError, connectWithToken, mcpWorldPerFile, recordChangesPerTest, tokenFor } from './helpers.ts'

describe.each(await targets())('MCP tools on %s', (target) => {
  const world = mcpWorldPerFile(target)
  let client: Client
  const events = recordChangesPerTest(world)
  beforeEach(async () => {
    client = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:read crm:write erp:read'))
  })
  afterEach(async () => {
    await client?.close()
  })
  const rest = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => world.a.request({ method, url: `/api/v1${url}`, ...(payload === undefined ? {} : { payload: payload as object }) })
  const count = async (path: string) => JSON.parse((await rest('GET', `${path}?limit=200`)).body).data.length as number

  it('gives REST\'s field messages for bad record fields, and writes nothing', async () => {
    const body = { name: 42, website: 'not a url', employee_count: 'many', color: 'blue' }
    const viaRest = JSON.parse((await rest('POST', '/accounts', body)).body)
    const viaMcp = await callError(client, 'create_record', { kind: 'account', fields: body })
    expect(viaMcp.status).toBe(400)
    expect(viaMcp.code).toBe(viaRest.code)
    expect(viaMcp.errors).toEqual(viaRest.errors.map((e: { field: string; message: string }) => ({ field: `fields.${e.field}`, message: e.message })))
    expect(viaMcp.text).toContain('fields.name: must be string')
    expect(viaMcp.text).toContain('fields.color: is not a known field')

    expect((await callError(client, 'create_record', { kind: 'account', fields: {} })).errors).toEqual([{ field: 'fields.name', message: 'is required' }])
    expect((await callError(client, 'create_record', { kind: 'account', fields: { name: 'x'.repeat(256) } })).errors).toEqual([{ field: 'fields.name', message: 'must NOT have more than 255 characters' }])
    const bigCustom = await callError(client, 'create_record', { kind: 'account', fields: { name: 'Big', custom_fields: { blob: 'z'.repeat(70 * 1024) } } })
    expect(bigCustom.errors).toEqual([{ field: 'custom_fields', message: 'must be at most 65536 bytes' }])
    expect((await callError(client, 'update_record', { kind: 'account', id: '0190d3c0-0000-7000-8000-000000000000', fields: {} })).errors).toEqual([{ field: 'fields', message: 'must NOT have fewer than 1 properties' }])
    expect(await count('/accounts')).toBe(0)
    expect(events).toEqual([])
  })

  it('names unknown kinds, bad ids, wrong argument types and unknown arguments', async () => {
    const kind = await callError(client, 'create_record', { kind: 'widget', fields: { name: 'x' } })
    expect(kind.code).toBe('validation_failed')
    expect(kind.errors).toEqual([{ field: 'kind', message: 'must be one of: account, contact, opportunity, lead, product, case, activity' }])
    expect((await callError(client, 'get_record', { kind: 'account', id: 'not-a-uuid' })).errors).toEqual([{ field: 'id', message: 'must be a valid uuid' }])
    expect((await callError(client, 'get_record', { kind: 'account' })).errors).toEqual([{ field: 'id', message: 'is required' }])
    expect((await callError(client, 'create_record', { kind: 'account', fields: 'name=x' })).errors).toEqual([{ field: 'fields', message: 'must be object' }])
    expect((await callError(client, 'search_records', { q: 'x', colour: 'red' })).errors).toEqual([{ field: 'colour', message: 'is not a known field' }])
    expect((await callError(client, 'search_records', { q: 'x'.repeat(201) })).errors).toEqual([{ field: 'q', message: 'must NOT have more than 200 characters' }])
    expect((await callError(client, 'change_opportunity_stage', { opportunity_id: '0190d3c0-0000-7000-8000-000000000000', stage: 'won' })).errors?.[0].field).toBe('stage')
    // Paging arguments get REST's own codes.
    expect((await callError(client, 'list_records', { kind: 'account', limit: 500 })).code).toBe('invalid_limit')
    expect((await callError(client, 'list_records', { kind: 'account', limit: '5' })).code).toBe('invalid_limit')
    expect((await callError(client, 'list_records', { kind: 'account', cursor: 'abc' })).code).toBe('invalid_cursor')
    expect((await callError(client, 'list_records', { kind: 'opportunity', filters: { stage: 'won', nope: 1 } })).errors).toEqual([
      { field: 'filters.nope', message: 'is not a known field' },
      { field: 'filters.stage', message: expect.stringMatching(/^must be one of: prospecting/) },
    ])
    expect((await callError(client, 'list_records', { kind: 'case_comment' })).errors).toEqual([{ field: 'case_id', message: 'is required for kind case_comment' }])
    // An unknown tool is a protocol error (-32602), as MCP 2025-11-25 and the SDK v2 answer it.
    await expect(client.callTool({ name: 'drop_database', arguments: {} })).rejects.toThrow(/-32602.*Tool drop_database not found/)
    const missing = await callError(client, 'get_record', { kind: 'account', id: '0190d3c0-0000-7000-8000-000000000000' })
    expect(missing).toMatchObject({ status: 404, code: 'not_found', detail: 'Account not found.' })
    expect(events).toEqual([])
  })

  it('answers conflicts of the special actions as tool errors, like REST\'s 409', async () => {
    const kase = await call(client, 'create_record', { kind: 'case', fields: { subject: 'Twice' } })
    await call(client, 'escalate_case', { case_id: kase.id })
    expect(await callError(client, 'escalate_case', { case_id: kase.id })).toMatchObject({ status: 409, code: 'conflict' })
    const lead = await call(client, 'create_record', { kind: 'lead', fields: { last_name: 'Once', company: 'Once Ltd' } })
    await call(client, 'convert_lead', { lead_id: lead.id })
    expect(await callError(client, 'convert_lead', { lead_id: lead.id })).toMatchObject({ status: 409, code: 'conflict', detail: 'This lead is already converted.' })
    expect(await callError(client, 'convert_lead', { lead_id: lead.id, account_id: 'nope' })).toMatchObject({ code: 'validation_failed' })
  })

  it('raises the same change events as the REST API for every write', async () => {
    const viaRest = JSON.parse((await rest('POST', '/opportunities', { name: 'By REST' })).body)
    await rest('PATCH', `/opportunities/${viaRest.id}`, { stage: 'proposal' })
    const restEvents = events.splice(0).map((e) => ({ ...e, id: 'x' }))
    const opp = await call(client, 'create_record', { kind: 'opportunity', fields: { name: 'By MCP' } })
    await call(client, 'change_opportunity_stage', { opportunity_id: opp.id, stage: 'proposal' })
    expect(events.map((e) => ({ ...e, id: 'x' }))).toEqual(restEvents)
    expect(events.every((e) => e.org === world.a.orgId)).toBe(true)

    events.length = 0
    const lead = await call(client, 'create_record', { kind: 'lead', fields: { last_name: 'Lovelace', company: 'Analytical Engines' } })
    await call(client, 'convert_lead', { lead_id: lead.id, opportunity_name: 'Engines' })
    const kase = await call(client, 'create_record', { kind: 'case', fields: { subject: 'Jammed' } })
    const comment = await call(client, 'add_case_comment', { case_id: kase.id, body: 'Looking into it.' })
    await call(client, 'escalate_case', { case_id: kase.id })
    await call(client, 'update_record', { kind: 'case_comment', id: comment.id, fields: { is_public: true } })
    await callConfirmed(client, 'delete_record', { kind: 'case', id: kase.id })
    expect(events.map((e) => `${e.action} ${e.kind}`)).toEqual([
      'created lead',
      'created account',
      'created contact',
      'created opportunity',
      'converted lead',
      'created case',
      'created case_comment',
      'escalated case',
      'updated case_comment',
      'deleted case',
      // Its comment goes with it, in the same statement and the same operation (records/record-deletion.ts).
      'deleted case_comment',
    ])
  })

  it('pages like REST and hides amounts without erp:read, in lists, records, writes and the summary', async () => {
    for (const [i, stage] of ['prospecting', 'proposal', 'proposal'].entries()) {
      await rest('POST', '/opportunities', { name: `Deal ${i}`, stage, amount: `${(i + 1) * 1000}.25` })
    }
    const restPage = JSON.parse((await rest('GET', '/opportunities?limit=2')).body)
    const first = await call(client, 'list_records', { kind: 'opportunity', limit: 2 })
    expect(first).toEqual(restPage)
    const second = await call(client, 'list_records', { kind: 'opportunity', limit: 2, cursor: first.next_cursor })
    expect(second).toEqual(JSON.parse((await rest('GET', `/opportunities?limit=2&cursor=${first.next_cursor}`)).body))
    expect(second.has_more).toBe(false)
    const full = await call(client, 'pipeline_summary')
    expect(full.stages.find((s: any) => s.stage === 'proposal')).toEqual({ stage: 'proposal', count: 2, amounts: [{ currency: 'USD', total: '5000.50' }] })
    expect(full.total_count).toBe(3)

    const noErp = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:read crm:write'))
    try {
      const page = await call(noErp, 'list_records', { kind: 'opportunity' })
      expect(page.data.map((r: any) => r.amount)).toEqual([null, null, null])
      expect((await call(noErp, 'get_record', { kind: 'opportunity', id: page.data[0].id })).amount).toBeNull()
      expect((await call(noErp, 'create_record', { kind: 'opportunity', fields: { name: 'Hidden', amount: '9.99' } })).amount).toBeNull()
      const summary = await call(noErp, 'pipeline_summary')
      expect(summary.amounts_visible).toBe(false)
      expect(summary.note).toMatch(/erp:read/)
      expect(summary.stages.find((s: any) => s.stage === 'proposal')).toEqual({ stage: 'proposal', count: 2, amounts: null })
      expect(summary.stages.map((s: any) => s.stage)).toEqual(['prospecting', 'qualification', 'needs_analysis', 'proposal', 'negotiation', 'closed_won', 'closed_lost'])
      const search = await call(noErp, 'search_records', { q: 'deal' })
      expect(search.skipped).toEqual([{ kind: 'product', reason: 'needs the scope crm:read and erp:read' }])
      expect(search.groups[0].records.every((r: any) => r.record.amount === null)).toBe(true)
    } finally {
      await noErp.close()
    }
  })

  it('sorts, filters by ranges and [in], and counts like REST; amounts need erp:read there too', async () => {
    for (const [i, stage] of ['prospecting', 'proposal', 'negotiation', 'proposal'].entries()) {
      await rest('POST', '/opportunities', { name: `Deal ${i}`, stage, amount: `${(4 - i) * 1000}.00`, close_date: `2026-0${i + 1}-15` })
    }
    const query = 'sort=amount&amount[gte]=2000&stage[in]=proposal,negotiation&close_date[lt]=2026-04-01&limit=1'
    const restPage = JSON.parse((await rest('GET', `/opportunities?${query}`)).body)
    const filters = { 'amount[gte]': '2000', 'stage[in]': 'proposal,negotiation', 'close_date[lt]': '2026-04-01' }
    const page = await call(client, 'list_records', { kind: 'opportunity', sort: 'amount', filters, limit: 1 })
    expect(page).toEqual(restPage)
    expect(page.data.map((r: any) => r.amount)).toEqual(['2000.00'])
    const next = await call(client, 'list_records', { kind: 'opportunity', sort: 'amount', filters, limit: 1, cursor: page.next_cursor })
    expect(next.data.map((r: any) => r.amount)).toEqual(['3000.00'])
    expect(await call(client, 'count_records', { kind: 'opportunity', filters })).toEqual({ count: 2 })
    expect(await call(client, 'count_records', { kind: 'opportunity' })).toEqual(JSON.parse((await rest('GET', '/opportunities/count')).body))
    expect((await callError(client, 'list_records', { kind: 'opportunity', sort: 'description' })).errors).toEqual([
      { field: 'sort', message: expect.stringContaining('must be one of') },
    ])
    expect((await callError(client, 'count_records', { kind: 'opportunity', filters: { 'amount[gte]': 'lots' } })).errors).toEqual([
      { field: 'filters.amount[gte]', message: 'has an invalid format' },
    ])
    const noErp = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:read'))
    try {
      expect((await callError(noErp, 'list_records', { kind: 'opportunity', sort: '-amount' })).code).toBe('insufficient_scope')
      expect((await callError(noErp, 'count_records', { kind: 'opportunity', filters: { 'amount[lt]': '5' } })).code).toBe('insufficient_scope')
      expect((await call(noErp, 'count_records', { kind: 'opportunity', filters: { 'stage[in]': 'proposal' } })).count).toBe(2)
    } finally {
      await noErp.close()
    }
  })

  it('answers writes as the token may read: only id and times without crm:read, amounts hidden without erp:read', async () => {
    const stub = ['created_at', 'id', 'updated_at']
    const opp = JSON.parse((await rest('POST', '/opportunities', { name: 'Secret deal', amount: '75000.00' })).body)
    const product = JSON.parse((await rest('POST', '/products', { name: 'Secret SKU', unit_price: '12.00' })).body)
    const kase = JSON.parse((await rest('POST', '/cases', { subject: 'Printer on fire' })).body)
    const lead = JSON.parse((await rest('POST', '/leads', { last_name: 'Okafor', company: 'Initech' })).body)
    const writeOnly = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:write'))
    const noErp = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:read crm:write'))
    try {
      const answers = [
        await call(writeOnly, 'create_record', { kind: 'account', fields: { name: 'Globex' } }),
        await call(writeOnly, 'update_record', { kind: 'product', id: product.id, fields: { name: 'Renamed SKU' } }),
        await call(writeOnly, 'update_record', { kind: 'opportunity', id: opp.id, fields: { name: 'Renamed' } }),
        await call(writeOnly, 'change_opportunity_stage', { opportunity_id: opp.id, stage: 'proposal' }),
        await call(writeOnly, 'add_case_comment', { case_id: kase.id, body: 'Private note' }),
        await call(writeOnly, 'escalate_case', { case_id: kase.id }),
      ]
      for (const answer of answers) expect(Object.keys(answer).sort()).toEqual(stub)
      const converted = await call(writeOnly, 'convert_lead', { lead_id: lead.id, create_opportunity: true })
      for (const part of ['lead', 'account', 'contact', 'opportunity']) expect(Object.keys(converted[part]).sort()).toEqual(stub)

      expect(await call(noErp, 'update_record', { kind: 'opportunity', id: opp.id, fields: { name: 'Again' } })).toMatchObject({ name: 'Again', amount: null })
      expect(Object.keys(await call(noErp, 'update_record', { kind: 'product', id: product.id, fields: { name: 'x' } })).sort()).toEqual(stub)
    } finally {
      await writeOnly.close()
      await noErp.close()
    }
  })

  it('bounds search: per-kind limit, has_more, and the kinds asked for', async () => {
    for (let i = 0; i < 7; i++) await rest('POST', '/accounts', { name: `Initech ${i}` })
    await rest('POST', '/contacts', { last_name: 'Initech-Lumbergh' })
    const found = await call(client, 'search_records', { q: 'INITECH', limit_per_kind: 3 })
    expect(found.groups.map((g: any) => [g.kind, g.records.length, g.has_more])).toEqual([
      ['account', 3, true],
      ['contact', 1, false],
    ])
    expect(found.groups[0].records[0].title).toBe('Initech 6')
    const onlyContacts = await call(client, 'search_records', { q: 'initech', kinds: ['contact'] })
    expect(onlyContacts.groups.map((g: any) => g.kind)).toEqual(['contact'])
    expect((await callError(client, 'search_records', { q: 'x', limit_per_kind: 21 })).errors?.[0].field).toBe('limit_per_kind')
  })
})
