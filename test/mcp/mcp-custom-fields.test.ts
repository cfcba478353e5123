/**
 * Custom fields through MCP: tools/list shows each organization its own fields (in the write tools'
 * input schemas and the descriptions), and the tools check values as REST does.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { targets } from '../helpers/databases.ts'
import { call, callError, connectWithToken, mcpWorldPerFile, tokenFor } from './helpers.ts'

describe.each(await targets())('MCP custom fields on %s', (target) => {
  const world = mcpWorldPerFile(target)
  let clientA: Client
  let clientB: Client
  beforeEach(async () => {
    const res = await world.a.request({ method: 'POST', url: '/api/v1/custom-fields', payload: { kind: 'contact', name: 'tier', label: 'Tier', type: 'picklist', options: ['gold', 'silver'], required: true } })
    expect(res.statusCode, res.body).toBe(201)
    clientA = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:read crm:write'))
    clientB = await connectWithToken(world.mcpUrl, await tokenFor(world, 'b', 'crm:read crm:write'))
  })
  afterEach(async () => {
    await clientA?.close()
    await clientB?.close()
  })

  it('lists each organization its own fields in the tools\' schemas', async () => {
    const toolsA = new Map((await clientA.listTools()).tools.map((t) => [t.name, t]))
    const create = toolsA.get('create_record')!
    expect(create.description).toContain('contact: tier (picklist: gold | silver)*')
    const rule = (create.inputSchema as unknown as { allOf: any[] }).allOf.find((r) => r.if.properties.kind.const === 'contact')
    expect(rule.then.properties.fields.properties.custom_fields).toMatchObject({ required: ['tier'], properties: { tier: { type: 'string', enum: ['gold', 'silver'] } } })
    const update = toolsA.get('update_record')!
    expect((update.inputSchema as unknown as { allOf: any[] }).allOf[0].then.properties.fields.properties.custom_fields.required).toBeUndefined()
    expect(toolsA.get('list_records')!.description).toContain('custom_fields.<name>')

    const toolsB = new Map((await clientB.listTools()).tools.map((t) => [t.name, t]))
    expect(toolsB.get('create_record')!.description).not.toContain('tier')
    expect((toolsB.get('create_record')!.inputSchema as { allOf?: unknown }).allOf).toBeUndefined()
  })

  it('checks values on write and filters by them, as REST does', async () => {
    const refused = await callError(clientA, 'create_record', { kind: 'contact', fields: { last_name: 'Doe', custom_fields: { tier: 'bronze' } } })
    expect(refused.errors).toEqual([{ field: 'custom_fields.tier', message: 'must be one of: gold, silver' }])
    const missing = await callError(clientA, 'create_record', { kind: 'contact', fields: { last_name: 'Doe' } })
    expect(missing.errors).toEqual([{ field: 'custom_fields.tier', message: 'is required' }])
    await call(clientA, 'create_record', { kind: 'contact', fields: { last_name: 'Gold', custom_fields: { tier: 'gold' } } })
    await call(clientA, 'create_record', { kind: 'contact', fields: { last_name: 'Silver', custom_fields: { tier: 'silver' } } })
    const page = await call(clientA, 'list_records', { kind: 'contact', filters: { 'custom_fields.tier': 'gold' } })
    expect(page.data.map((r: { last_name: string }) => r.last_name)).toEqual(['Gold'])
    expect((await call(clientA, 'count_records', { kind: 'contact', filters: { 'custom_fields.tier[in]': 'gold,silver' } })).count).toBe(2)
    const unknown = await callError(clientA, 'list_records', { kind: 'contact', filters: { 'custom_fields.nope': 'x' } })
    expect(unknown.errors).toEqual([{ field: 'custom_fields.nope', message: 'nope is not a custom field of contacts' }])
  })
})
