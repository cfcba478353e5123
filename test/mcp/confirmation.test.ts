/**
 * Confirmation before destructive actions (docs/mcp.md, Confirmation), over real HTTP on both
 * databases: on MCP 2026-07-28 with elicitation, an input_required question answered through
 * inputResponses with the sealed requestState; on 2025-11-25 (and clients without elicitation), a
 * confirmation_required refusal whose confirm token runs the same call. Tampered, foreign, other-call
 * and expired state or tokens are refused and delete nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { targets } from '../helpers/databases.ts'
import { callConfirmed, callError, connectWithToken, mcpWorldPerFile, MCP_HEADERS, tokenFor } from './helpers.ts'
import { CONFIRM_BATCH_ABOVE } from '../../src/mcp/batch-tools.ts'

const MODERN = '2026-07-28'
let nextId = 1

/** A 2026-07-28 request as a stateless client sends it: the `_meta` envelope and the Mcp- headers. */
async function modernCall(url: string, token: string, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}, elicitation = true) {
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      ...extra,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientInfo': { name: 'confirm-test', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': elicitation ? { elicitation: { form: {} } } : {},
      },
    },
  }
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${token}`, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify(body),
  })
  expect(res.status).toBe(200)
  return (await res.json()) as { result?: any; error?: { code: number; message: string } }
}

describe.each(await targets())('confirmation before destructive MCP tools on %s', (target) => {
  const world = mcpWorldPerFile(target)
  let token: string
  let account: { id: string }
  const exists = async (id: string) => (await world.a.request({ method: 'GET', url: `/api/v1/accounts/${id}` })).statusCode === 200

  beforeEach(async () => {
    token = await tokenFor(world, 'a', 'crm:read crm:write')
    account = JSON.parse((await world.a.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Initech' } })).body)
  })

  it('asks through input_required on 2026-07-28 and deletes once the person accepts', async () => {
    const args = { kind: 'account', id: account.id }
    const asked = await modernCall(world.mcpUrl, token, 'delete_record', args)
    expect(asked.result.resultType).toBe('input_required')
    const request = asked.result.inputRequests.confirm
    expect(request.method).toBe('elicitation/create')
    expect(request.params.message).toContain('"Initech"')
    expect(typeof asked.result.requestState).toBe('string')
    expect(await exists(account.id)).toBe(true)

    // Declined: nothing happens.
    const declined = await modernCall(world.mcpUrl, token, 'delete_record', args, { inputResponses: { confirm: { action: 'decline' } }, requestState: asked.result.requestState })
    expect(declined.result.isError).toBe(true)
    expect(declined.result.structuredContent.error.code).toBe('confirmation_declined')
    expect(await exists(account.id)).toBe(true)

    const accepted = await modernCall(world.mcpUrl, token, 'delete_record', args, { inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, requestState: asked.result.requestState })
    expect(accepted.result.structuredContent).toEqual({ deleted: true, kind: 'account', id: account.id })
    expect(await exists(account.id)).toBe(false)
  })

  it('refuses tampered state, state for another call and another caller\'s state, deleting nothing', async () => {
    const args = { kind: 'account', id: account.id }
    const asked = await modernCall(world.mcpUrl, token, 'delete_record', args)
    const yes = { inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } }

    const tampered = await modernCall(world.mcpUrl, token, 'delete_record', args, { ...yes, requestState: `${asked.result.requestState}-TAMPERED` })
    expect(tampered.error?.code).toBe(-32602)

    const other = JSON.parse((await world.a.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Other' } })).body)
    const elsewhere = await modernCall(world.mcpUrl, token, 'delete_record', { kind: 'account', id: other.id }, { ...yes, requestState: asked.result.requestState })
    expect(elsewhere.result.structuredContent.error.code).toBe('invalid_confirmation')

    // Another organization's person replays the state: it is bound to the caller.
    const foreign = await modernCall(world.mcpUrl, await tokenFor(world, 'b', 'crm:read crm:write'), 'delete_record', args, { ...yes, requestState: asked.result.requestState })
    expect(foreign.error?.code).toBe(-32602)

    expect(await exists(account.id)).toBe(true)
    expect(await exists(other.id)).toBe(true)
  })

  it('refuses with a confirm token where the client cannot be asked, and runs the same call with it', async () => {
    const args = { kind: 'account', id: account.id }
    const refused = await modernCall(world.mcpUrl, token, 'delete_record', args, {}, false)
    expect(refused.result.isError).toBe(true)
    const error = refused.result.structuredContent.error
    expect(error).toMatchObject({ status: 409, code: 'confirmation_required' })
    expect(error.detail).toContain('"confirm"')
    expect(await exists(account.id)).toBe(true)

    // The token confirms exactly this call.
    const other = JSON.parse((await world.a.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Other' } })).body)
    const misused = await modernCall(world.mcpUrl, token, 'delete_record', { kind: 'account', id: other.id, confirm: error.confirm_token }, {}, false)
    expect(misused.result.structuredContent.error.code).toBe('invalid_confirmation')
    const forged = await modernCall(world.mcpUrl, token, 'delete_record', { ...args, confirm: `${error.confirm_token.slice(0, -4)}AAAA` }, {}, false)
    expect(forged.result.structuredContent.error.code).toBe('invalid_confirmation')
    expect(await exists(other.id)).toBe(true)

    const done = await modernCall(world.mcpUrl, token, 'delete_record', { ...args, confirm: error.confirm_token }, {}, false)
    expect(done.result.structuredContent).toEqual({ deleted: true, kind: 'account', id: account.id })
  })

  it('uses the confirm token on 2025-11-25, asks before deleting batches and large batches only, and 404s a missing record first', async () => {
    const client: Client = await connectWithToken(world.mcpUrl, token)
    try {
      const missing = await callError(client, 'delete_record', { kind: 'account', id: '0190d3c0-0000-7000-8000-000000000000' })
      expect(missing).toMatchObject({ status: 404, code: 'not_found' })

      const asked = await callError(client, 'batch_write_records', { kind: 'account', operation: 'delete', records: [{ id: account.id }] })
      expect(asked.code).toBe('confirmation_required')
      expect(asked.text).toContain('Delete 1 accounts for good?')
      expect(await exists(account.id)).toBe(true)

      // A small create batch runs at once; one over the documented size asks first.
      const small = await client.callTool({ name: 'batch_write_records', arguments: { kind: 'account', operation: 'create', records: [{ name: 'A' }] } })
      expect(small.isError).toBeFalsy()
      const big = Array.from({ length: CONFIRM_BATCH_ABOVE + 1 }, (_, i) => ({ name: `Bulk ${i}` }))
      expect((await callError(client, 'batch_write_records', { kind: 'account', operation: 'create', records: big })).code).toBe('confirmation_required')
      const created = await callConfirmed(client, 'batch_write_records', { kind: 'account', operation: 'create', records: big })
      expect(created.count).toBe(CONFIRM_BATCH_ABOVE + 1)

      expect(await callConfirmed(client, 'delete_record', { kind: 'account', id: account.id })).toEqual({ deleted: true, kind: 'account', id: account.id })
      expect(await exists(account.id)).toBe(false)
    } finally {
      await client.close()
    }
  })

  it('annotates every tool honestly, and asks first for exactly the tools that destroy', async () => {
    const client: Client = await connectWithToken(world.mcpUrl, token)
    try {
      const { tools } = await client.listTools()
      for (const tool of tools) {
        const a = tool.annotations!
        expect([a.readOnlyHint, a.destructiveHint, a.idempotentHint, a.openWorldHint].every((h) => typeof h === 'boolean')).toBe(true)
        if (a.readOnlyHint) expect(a.destructiveHint).toBe(false)
        const props = (tool.inputSchema.properties ?? {}) as Record<string, unknown>
        expect('confirm' in props).toBe(['delete_record', 'batch_write_records', 'revert_operation'].includes(tool.name))
      }
      // The order is the registration order, the same on every request and process.
      expect(tools.map((t) => t.name)).toEqual((await client.listTools()).tools.map((t) => t.name))
    } finally {
      await client.close()
    }
  })
})
