/**
 * The main story with the official SDK client against a live service: 401 -> protected
 * resource metadata -> authorization server metadata -> dynamic registration -> sign-in and consent
 * -> token, then every tool is listed and called. A second run uses a client created through
 * Settings -> API; a third holds a crm:read token and steps up to crm:write after a 403.
 */
import { describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { targets } from '../helpers/databases.ts'
import { call, callConfirmed, ConsentingProvider, mcpWorldPerFile, type McpWorld } from './helpers.ts'

const ALL_TOOLS = [
  'add_case_comment',
  'batch_write_records',
  'change_opportunity_stage',
  'convert_lead',
  'count_records',
  'create_record',
  'delete_record',
  'escalate_case',
  'get_record',
  'list_operations',
  'list_records',
  'pipeline_summary',
  'record_history',
  'revert_operation',
  'search_records',
  'update_record',
  'upsert_record',
]

/** Connects as a host does: the first attempt meets 401, the provider consents, the code is exchanged. */
async function connectThroughOAuth(url: string, provider: ConsentingProvider): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider })
  await expect(new Client({ name: 'host', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError)
  await first.finishAuth(provider.code!)
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider })
  const client = new Client({ name: 'host', version: '1' })
  await client.connect(transport)
  return { client, transport }
}

/** Lists the tools and calls each one, checking each result against what the REST API holds. */
async function exerciseEveryTool(world: McpWorld, client: Client): Promise<void> {
  const { tools } = await client.listTools()
  expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS)
  for (const tool of tools) {
    expect(tool.description!.length).toBeGreaterThan(60)
    expect(tool.inputSchema.type).toBe('object')
    expect(tool.outputSchema?.type).toBe('object')
    expect(typeof tool.annotations?.readOnlyHint).toBe('boolean')
  }
  const called = new Set<string>()
  const run = async <T = any>(name: string, args: Record<string, unknown> = {}): Promise<T> => {
    called.add(name)
    return call<T>(client, name, args)
  }

  const account = await run('create_record', { kind: 'account', fields: { name: 'Globex Corporation', industry: 'Energy' } })
  expect(account.id).toMatch(/^[0-9a-f-]{36}$/)
  const rest = await world.a.request({ method: 'GET', url: `/api/v1/accounts/${account.id}` })
  expect(JSON.parse(rest.body)).toEqual(account)

  const updated = await run('update_record', { kind: 'account', id: account.id, fields: { industry: 'Utilities' } })
  expect(updated.industry).toBe('Utilities')
  expect(await run('get_record', { kind: 'account', id: account.id })).toEqual(updated)

  const opp = await run('create_record', { kind: 'opportunity', fields: { name: 'Globex turbines', account_id: account.id, amount: '125000.50' } })
  expect(opp.amount).toBe('125000.50')
  const staged = await run('change_opportunity_stage', { opportunity_id: opp.id, stage: 'proposal' })
  expect(staged.stage).toBe('proposal')

  const summary = await run('pipeline_summary')
  expect(summary.amounts_visible).toBe(true)
  expect(summary.stages.find((s: any) => s.stage === 'proposal')).toEqual({ stage: 'proposal', count: 1, amounts: [{ currency: 'USD', total: '125000.50' }] })

  const found = await run('search_records', { q: 'globex' })
  expect(found.groups.map((g: any) => g.kind).sort()).toEqual(['account', 'opportunity'])

  const page = await run('list_records', { kind: 'opportunity', limit: 10, filters: { stage: 'proposal' } })
  expect((await run('count_records', { kind: 'opportunity', filters: { stage: 'proposal' } })).count).toBe(page.data.length)
  expect(page.data.map((r: any) => r.id)).toEqual([opp.id])

  const kase = await run('create_record', { kind: 'case', fields: { subject: 'Turbine noise', account_id: account.id } })
  const comment = await run('add_case_comment', { case_id: kase.id, body: 'Customer called twice.', is_public: false })
  expect(comment.case_id).toBe(kase.id)
  const escalated = await run('escalate_case', { case_id: kase.id })
  expect(escalated.status).toBe('escalated')
  expect(escalated.is_escalated).toBe(true)

  const lead = await run('create_record', { kind: 'lead', fields: { last_name: 'Simpson', company: 'Springfield Nuclear' } })
  const converted = await run('convert_lead', { lead_id: lead.id, create_opportunity: true })
  expect(converted.lead.status).toBe('converted')
  expect(converted.account.name).toBe('Springfield Nuclear')
  expect(converted.opportunity.account_id).toBe(converted.account.id)

  const imported = await run('batch_write_records', { kind: 'contact', operation: 'upsert', records: [{ src_id: 'HS-1', last_name: 'Burns', account_id: account.id }, { src_id: 'HS-2', last_name: 'Smithers' }] })
  expect(imported.items.map((i: any) => [i.outcome, i.record.last_name])).toEqual([['created', 'Burns'], ['created', 'Smithers']])
  const upserted = await run('upsert_record', { kind: 'contact', src_id: 'HS-2', fields: { last_name: 'Smithers', title: 'Assistant' } })
  expect(upserted).toMatchObject({ created: false, record: { id: imported.items[1].id, title: 'Assistant' } })

  // Who changed what, and an undo of the last operation (the upsert): the title goes back.
  const history = await run('record_history', { kind: 'account', id: account.id })
  expect(history.data[0].changes.map((c: any) => c.field)).toEqual(['industry'])
  const operations = await run('list_operations', { channel: 'mcp' })
  expect(operations.data[0]).toMatchObject({ channel: 'mcp', kinds: ['contact'], counts: { updated: 1 } })
  called.add('revert_operation')
  const reverted = await callConfirmed(client, 'revert_operation', { operation_id: operations.data[0].id })
  expect(reverted.state).toBe('succeeded')
  expect((await run('get_record', { kind: 'contact', id: imported.items[1].id })).title).toBeNull()

  called.add('delete_record')
  const deleted = await callConfirmed(client, 'delete_record', { kind: 'case', id: kase.id })
  expect(deleted).toEqual({ deleted: true, kind: 'case', id: kase.id })
  expect((await world.a.request({ method: 'GET', url: `/api/v1/cases/${kase.id}` })).statusCode).toBe(404)

  expect([...called].sort()).toEqual(ALL_TOOLS)

  // Records are resources too: a template per kind, and the newest records listed.
  const { resourceTemplates } = await client.listResourceTemplates()
  expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('cairn://accounts/{id}')
  const { resources } = await client.listResources()
  expect(resources.map((r) => r.uri)).toContain(`cairn://accounts/${account.id}`)
  const read = await client.readResource({ uri: `cairn://accounts/${account.id}` })
  expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual(updated)
}

/** A confidential client created by org A's admin through the Settings -> API endpoint. */
async function settingsClient(world: McpWorld, name: string, scopes: string[]): Promise<{ client_id: string; client_secret: string }> {
  const created = await world.a.request({ method: 'POST', url: '/api/v1/settings/api-clients', payload: { name, redirect_uris: ['http://127.0.0.1/callback'], scopes } })
  expect(created.statusCode).toBe(201)
  return JSON.parse(created.body)
}

describe.each(await targets())('MCP through the SDK client and OAuth on %s', (target) => {
  const world = mcpWorldPerFile(target)

  it('registers dynamically, signs in, consents, then lists and calls every tool', async () => {
    const provider = new ConsentingProvider(world.svc.url, world.a)
    const { client } = await connectThroughOAuth(world.mcpUrl, provider)
    // Dynamic registration, then an authorization request bound to /mcp with PKCE and every scope.
    expect(provider.client?.client_id).toMatch(/^crm_/)
    const authorize = provider.authorizations[0]
    expect(authorize.origin + authorize.pathname).toBe(`${world.svc.url}/oauth/authorize`)
    expect(authorize.searchParams.get('resource')).toBe(world.mcpUrl)
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorize.searchParams.get('scope')?.split(' ').sort()).toEqual(['crm:read', 'crm:write', 'erp:read'])
    expect(provider.saved?.access_token).toMatch(/^crm_at_/)
    await exerciseEveryTool(world, client)
    await client.close()
  })

  it('works with a client created in Settings -> API (confidential, pre-registered)', async () => {
    const { client_id, client_secret } = await settingsClient(world, 'Desktop assistant', ['crm:read', 'crm:write', 'erp:read'])
    const provider = new ConsentingProvider(world.svc.url, world.a, { client: { client_id, client_secret, redirect_uris: ['http://127.0.0.1/callback'] } })
    const { client } = await connectThroughOAuth(world.mcpUrl, provider)
    expect(provider.client?.client_id).toBe(client_id) // no dynamic registration happened
    const settings = await world.a.request({ method: 'GET', url: '/api/v1/settings/api-clients' })
    expect(JSON.parse(settings.body).data).toHaveLength(2) // the file's confidential client and this one
    await exerciseEveryTool(world, client)
    await client.close()
  })

  it('steps a crm:read token up to crm:write after a 403 insufficient_scope', async () => {
    const { client_id, client_secret } = await settingsClient(world, 'Careful assistant', ['crm:read', 'crm:write'])
    const provider = new ConsentingProvider(world.svc.url, world.a, { client: { client_id, client_secret, redirect_uris: ['http://127.0.0.1/callback'], scope: 'crm:read' }, keepRefreshToken: false })
    const seen: { status: number; challenge: string | null }[] = []
    const recordingFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init)
      if (String(input).endsWith('/mcp')) seen.push({ status: res.status, challenge: res.headers.get('www-authenticate') })
      return res
    }
    // First grant: the SDK's auth() asked for crm:read only, as a host configured for reading would.
    expect(await auth(provider, { serverUrl: world.mcpUrl, scope: 'crm:read' })).toBe('REDIRECT')
    expect(await auth(provider, { serverUrl: world.mcpUrl, authorizationCode: provider.code! })).toBe('AUTHORIZED')
    expect(provider.saved?.scope).toBe('crm:read')

    const transport = new StreamableHTTPClientTransport(new URL(world.mcpUrl), { authProvider: provider, fetch: recordingFetch })
    const client = new Client({ name: 'host', version: '1' })
    await client.connect(transport)
    expect((await call(client, 'list_records', { kind: 'account' })).data).toEqual([])

    // A write: 403 with the scopes to ask for; the SDK re-authorizes with them (consent again) ...
    await expect(client.callTool({ name: 'create_record', arguments: { kind: 'account', fields: { name: 'Stepped up' } } })).rejects.toBeInstanceOf(UnauthorizedError)
    const denied = seen.find((s) => s.status === 403)!
    expect(denied.challenge).toBe(
      `Bearer error="insufficient_scope", scope="crm:read crm:write", resource_metadata="${world.mcpUrl.replace('/mcp', '/.well-known/oauth-protected-resource/mcp')}", error_description="This call needs the scope crm:write"`,
    )
    expect(provider.authorizations.at(-1)!.searchParams.get('scope')).toBe('crm:read crm:write')
    // ... and once the host exchanges the new code, the same call succeeds.
    await transport.finishAuth(provider.code!)
    expect(provider.saved?.scope).toBe('crm:read crm:write')
    const res = (await client.callTool({ name: 'create_record', arguments: { kind: 'account', fields: { name: 'Stepped up' } } })) as CallToolResult
    expect(res.isError).toBeFalsy()
    expect((res.structuredContent as { name: string }).name).toBe('Stepped up')
    await client.close()
  })
})
