/**
 * Settings -> API's "Last used" (docs/oauth.md, Clients): when a token of the client was last
 * accepted on a request, through real requests on both bearer paths (the list route's one
 * statement and the two-step check) and on /mcp; obtaining a token is not a use, and neither is a
 * refused token or a session request. The time is the request's, written at most once a minute per
 * client, never moving back.
 */
import { describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import type { Member } from '../helpers/build-app.ts'
import { markClientUsed } from '../../src/oauth/client.repository.ts'
import { api, body, MCP_RESOURCE, oauthHarnessPerFile, obtainTokens, type OAuthHarness, type TestClient } from './helpers.ts'

describe.each(await targets())('the last use of an API client on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  oauthHarnessPerFile(target, (harness, a, c) => {
    h = harness
    admin = a
    client = c
  })

  /** What Settings -> API shows for the client, once the writes under way have ended. */
  async function lastUsed(): Promise<string | null> {
    await h.app.clientUses.settled()
    const res = await admin.request({ method: 'GET', url: '/api/v1/settings/api-clients' })
    expect(res.statusCode, res.body).toBe(200)
    return body(res).data.find((c: { client_id: string }) => c.client_id === client.client_id).last_used_at
  }

  it('is null (Never) for a client whose token was issued and not used, then the time of the first request', async () => {
    const tokens = await obtainTokens(h.app, admin, client)
    h.clock.advance(600)
    expect(await lastUsed()).toBeNull()
    h.clock.advance(120)
    const requestedAt = h.clock.now()
    // The list route: the token is judged inside its one statement (records/list-with-bearer.ts).
    expect((await api(h.app, tokens.access_token)).statusCode).toBe(200)
    expect(await lastUsed()).toBe(requestedAt.toISOString())
  })

  it('is recorded by the two-step check too, on REST and on /mcp', async () => {
    const rest = await obtainTokens(h.app, admin, client)
    h.clock.advance(300)
    const restAt = h.clock.now()
    expect((await api(h.app, rest.access_token, { url: '/api/v1/accounts/count' })).statusCode).toBe(200)
    expect(await lastUsed()).toBe(restAt.toISOString())

    const mcp = await obtainTokens(h.app, admin, client, { resource: MCP_RESOURCE })
    h.clock.advance(300)
    const mcpAt = h.clock.now()
    const res = await h.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { authorization: `Bearer ${mcp.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(await lastUsed()).toBe(mcpAt.toISOString())
  })

  it('is written at most once a minute, and never for a refused token or a session', async () => {
    const tokens = await obtainTokens(h.app, admin, client)
    const first = h.clock.now()
    expect((await api(h.app, tokens.access_token)).statusCode).toBe(200)
    expect(await lastUsed()).toBe(first.toISOString())
    // Within the minute: the recorded time stays (to the minute, the first use of the minute).
    h.clock.advance(59)
    expect((await api(h.app, tokens.access_token)).statusCode).toBe(200)
    expect((await api(h.app, tokens.access_token, { url: '/api/v1/accounts/count' })).statusCode).toBe(200)
    expect(await lastUsed()).toBe(first.toISOString())
    h.clock.advance(2)
    const later = h.clock.now()
    expect((await api(h.app, tokens.access_token)).statusCode).toBe(200)
    expect(await lastUsed()).toBe(later.toISOString())

    // A token that is refused (expired here) is no use; neither is the administrator's session.
    h.clock.advance(3600 + 120)
    expect((await api(h.app, tokens.access_token)).statusCode).toBe(401)
    expect((await admin.request({ method: 'GET', url: '/api/v1/accounts' })).statusCode).toBe(200)
    expect(await lastUsed()).toBe(later.toISOString())
  })

  it('never moves back when an earlier use is written after a later one (processes write independently)', async () => {
    const tokens = await obtainTokens(h.app, admin, client)
    h.clock.advance(120)
    const at = h.clock.now()
    expect((await api(h.app, tokens.access_token)).statusCode).toBe(200)
    expect(await lastUsed()).toBe(at.toISOString())
    // Another process's use from 30 s before, landing now.
    await markClientUsed(h.app.db, admin.orgId, client.client_id, new Date(at.getTime() - 30_000))
    expect(await lastUsed()).toBe(at.toISOString())
  })
})
