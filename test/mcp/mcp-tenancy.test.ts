/**
 * Tenancy through MCP: organization B holds a record of every kind; a token of organization A with
 * every scope never sees, finds, changes or attaches any of them, through any tool or resource,
 * and every attempt leaves B's records exactly as they were.
 */
import { describe, expect, it } from 'vitest'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { targets } from '../helpers/databases.ts'
import { call, callError, connectWithToken, mcpWorldPerFile, tokenFor, type McpWorld } from './helpers.ts'

const MARK = 'Zenith'

/** One record of every kind in B, named with MARK so a search would find them. */
async function seedB(world: McpWorld): Promise<Record<string, { id: string; path: string }>> {
  const post = async (path: string, body: object) => {
    const res = await world.b.request({ method: 'POST', url: `/api/v1/${path}`, payload: body })
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.body}`)
    return { id: JSON.parse(res.body).id as string, path }
  }
  const account = await post('accounts', { name: `${MARK} Holdings` })
  const kase = await post('cases', { subject: `${MARK} outage`, account_id: account.id })
  return {
    account,
    contact: await post('contacts', { last_name: `${MARK} Smith`, account_id: account.id }),
    opportunity: await post('opportunities', { name: `${MARK} deal`, amount: '777.00', stage: 'negotiation' }),
    lead: await post('leads', { last_name: `${MARK} Lee`, company: `${MARK} Co` }),
    product: await post('products', { name: `${MARK} widget` }),
    case: kase,
    case_comment: await post(`cases/${kase.id}/comments`, { body: `${MARK} comment` }),
    activity: await post('activities', { subject: `${MARK} call`, kind: 'call' }),
  }
}

async function snapshot(world: McpWorld, seeded: Record<string, { id: string; path: string }>): Promise<string[]> {
  const out: string[] = []
  for (const { id, path } of Object.values(seeded)) {
    const segment = path.startsWith('cases/') ? 'case-comments' : path
    out.push((await world.b.request({ method: 'GET', url: `/api/v1/${segment}/${id}` })).body)
  }
  return out
}

describe.each(await targets())('MCP tenancy on %s', (target) => {
  const world = mcpWorldPerFile(target)

  it('never shows organization B\'s records to a token of organization A', async () => {
    const seeded = await seedB(world)
    const before = await snapshot(world, seeded)
    await world.a.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: `${MARK} of A` } })
    const client = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:read crm:write erp:read'))
    const bIds = new Set(Object.values(seeded).map((s) => s.id))
    const leaks = (value: unknown) => [...bIds].filter((id) => JSON.stringify(value).includes(id))
    try {
      const found = await call(client, 'search_records', { q: MARK, limit_per_kind: 20 })
      expect(found.groups.map((g: any) => g.records.map((r: any) => r.title))).toEqual([[`${MARK} of A`]])
      for (const kind of ['account', 'contact', 'opportunity', 'lead', 'product', 'case', 'activity']) {
        expect(leaks(await call(client, 'list_records', { kind, limit: 200 }))).toEqual([])
        expect(leaks(await call(client, 'list_records', { kind, q: MARK }))).toEqual([])
      }
      expect(await callError(client, 'list_records', { kind: 'case_comment', case_id: seeded.case.id })).toMatchObject({ code: 'not_found' })
      const summary = await call(client, 'pipeline_summary')
      expect(summary.total_count).toBe(0)

      for (const [kind, { id }] of Object.entries(seeded)) {
        expect(await callError(client, 'get_record', { kind, id })).toMatchObject({ status: 404, code: 'not_found' })
        expect(await callError(client, 'update_record', { kind, id, fields: kind === 'case_comment' ? { is_public: true } : { description: 'taken over' } })).toMatchObject({ status: 404 })
        expect(await callError(client, 'delete_record', { kind, id })).toMatchObject({ status: 404 })
      }
      expect(await callError(client, 'add_case_comment', { case_id: seeded.case.id, body: 'hello from A' })).toMatchObject({ status: 404 })
      expect(await callError(client, 'escalate_case', { case_id: seeded.case.id })).toMatchObject({ status: 404 })
      expect(await callError(client, 'convert_lead', { lead_id: seeded.lead.id })).toMatchObject({ status: 404 })
      expect(await callError(client, 'change_opportunity_stage', { opportunity_id: seeded.opportunity.id, stage: 'closed_won' })).toMatchObject({ status: 404 })
      // Linking B's account to A's lead conversion is refused as a field of this organization.
      const lead = await call(client, 'create_record', { kind: 'lead', fields: { last_name: 'Own', company: 'Own Co' } })
      const link = await callError(client, 'convert_lead', { lead_id: lead.id, account_id: seeded.account.id })
      expect(link.errors).toEqual([{ field: 'account_id', message: 'must be the id of a account of this organization' }])
      const ref = await callError(client, 'create_record', { kind: 'contact', fields: { last_name: 'Cross', account_id: seeded.account.id } })
      expect(ref.status).toBe(400)

      const { resources } = await client.listResources()
      expect(leaks(resources)).toEqual([])
      for (const { id, path } of Object.values(seeded)) {
        const prefix = path.startsWith('cases/') ? 'case-comments' : path
        await expect(client.readResource({ uri: `cairn://${prefix}/${id}` })).rejects.toThrow(/not found/)
      }
      const unknown = (await client.callTool({ name: 'get_record', arguments: { kind: 'account', id: seeded.account.id } })) as CallToolResult
      expect(leaks(unknown)).toEqual([])
    } finally {
      await client.close()
    }
    expect(await snapshot(world, seeded)).toEqual(before)
  })
})
