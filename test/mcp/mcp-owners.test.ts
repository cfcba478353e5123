/**
 * Owners through the MCP write tools (docs/mcp.md, Owners): a new record is the token's person's,
 * an owner may be given by a member's e-mail address, and an address of no member is refused with
 * the field named, writing nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { targets } from '../helpers/databases.ts'
import { call, callError, connectWithToken, mcpWorldPerFile, tokenFor } from './helpers.ts'

describe.each(await targets())('MCP owners on %s', (target) => {
  const world = mcpWorldPerFile(target)
  let client: Client
  beforeEach(async () => {
    client = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:read crm:write'))
  })
  afterEach(async () => {
    await client?.close()
  })

  it('creates records owned by the token\'s person, and takes an owner by e-mail', async () => {
    const mine = await call(client, 'create_record', { kind: 'account', fields: { name: 'Mine via MCP' } })
    expect(mine.owner_id).toBe(world.a.userId)
    const byEmail = await call(client, 'update_record', { kind: 'account', id: mine.id, fields: { owner_id: world.a.email.toUpperCase() } })
    expect(byEmail.owner_id).toBe(world.a.userId)
    const unassigned = await call(client, 'create_record', { kind: 'lead', fields: { last_name: 'Nobody', company: 'N Co', owner_id: null } })
    expect(unassigned.owner_id).toBeNull()
    const stranger = await callError(client, 'create_record', { kind: 'account', fields: { name: 'Stray', owner_id: world.b.email } })
    expect(stranger.status).toBe(400)
    expect(stranger.errors).toEqual([{ field: 'fields.owner_id', message: "must be a member's user id or e-mail address" }])
    const listed = JSON.parse((await world.a.request({ method: 'GET', url: '/api/v1/accounts?owner_id=me' })).body)
    expect(listed.data.map((r: { name: string }) => r.name)).toEqual(['Mine via MCP'])
  })
})
