/**
 * record_history, list_operations and revert_operation through the SDK client over HTTP: an MCP
 * write carries the client's id and the `mcp` channel into its history and operation, an admin
 * finds what one client changed in the last day, and the revert tool (marked destructive) undoes it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { targets } from '../helpers/databases.ts'
import { call, callConfirmed, connectWithToken, mcpWorldPerFile, tokenFor } from './helpers.ts'

describe.each(await targets())('MCP history tools on %s', (target) => {
  const world = mcpWorldPerFile(target)
  let client: Client
  beforeEach(async () => {
    client = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:read crm:write'))
  })
  afterEach(async () => {
    await client?.close()
  })

  it('attributes MCP writes to the client, lists them per client, and reverts them', async () => {
    const tools = (await client.listTools()).tools
    expect(tools.find((t) => t.name === 'revert_operation')?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false })
    expect(tools.find((t) => t.name === 'record_history')?.annotations).toMatchObject({ readOnlyHint: true })

    const account = await call(client, 'create_record', { kind: 'account', fields: { name: 'Agent-made' } })
    await call(client, 'update_record', { kind: 'account', id: account.id, fields: { name: 'Agent-changed' } })
    const history = await call(client, 'record_history', { kind: 'account', id: account.id })
    expect(history.data.map((e: any) => e.action)).toEqual(['updated', 'created'])
    expect(history.data[0].actor).toEqual({ channel: 'mcp', user: { id: world.a.userId, name: 'Admin', email: world.a.email }, client: { id: world.clientA.client_id, name: expect.any(String) } })

    const since = new Date(Date.now() - 86400_000).toISOString()
    const ops = await call(client, 'list_operations', { client_id: world.clientA.client_id, since })
    expect(ops.data.map((o: any) => [o.channel, o.counts.created, o.counts.updated])).toEqual([['mcp', 0, 1], ['mcp', 1, 0]])
    // The same filter over REST, as an admin in the app sees it.
    const rest = JSON.parse((await world.a.request({ url: `/api/v1/operations?client_id=${encodeURIComponent(world.clientA.client_id)}&since=${since}` })).body)
    expect(rest.data.map((o: any) => o.id)).toEqual(ops.data.map((o: any) => o.id))

    // An undo is confirmed by the person first (here: the confirm token's way).
    const status = await callConfirmed(client, 'revert_operation', { operation_id: ops.data[0].id })
    expect(status).toMatchObject({ reverts: ops.data[0].id, state: 'succeeded', reverted: 1, conflicts: [] })
    expect(await call(client, 'get_record', { kind: 'account', id: account.id })).toMatchObject({ name: 'Agent-made' })
    expect(await callConfirmed(client, 'revert_operation', { operation_id: ops.data[0].id })).toEqual(status)
    // Organization B sees none of it.
    const other = JSON.parse((await world.b.request({ url: '/api/v1/operations' })).body)
    expect(other.data).toEqual([])
  })
})
