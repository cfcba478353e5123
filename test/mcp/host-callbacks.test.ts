/**
 * The callback URLs the README gives for each MCP host work here: each host's dynamic registration
 * payload (as the hosts send it) is accepted, and an authorization for /mcp ends at that callback
 * with a code. Cursor's `cursor://` callback is accepted by exact value only.
 */
import { describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { pkce, postConsent, location } from '../oauth/helpers.ts'
import { mcpWorldPerFile } from './helpers.ts'

const HOSTS: { host: string; redirectUris: string[]; use: string }[] = [
  { host: 'Claude (claude.ai / Claude Desktop)', redirectUris: ['https://claude.ai/api/mcp/auth_callback', 'https://claude.com/api/mcp/auth_callback'], use: 'https://claude.ai/api/mcp/auth_callback' },
  { host: 'Claude Code', redirectUris: ['http://localhost:8765/callback'], use: 'http://localhost:51234/callback' },
  { host: 'Cursor', redirectUris: ['cursor://anysphere.cursor-mcp/oauth/callback', 'http://127.0.0.1:8787/callback'], use: 'cursor://anysphere.cursor-mcp/oauth/callback' },
  { host: 'VS Code', redirectUris: ['https://insiders.vscode.dev/redirect', 'https://vscode.dev/redirect', 'http://127.0.0.1/', 'http://127.0.0.1:33418/'], use: 'http://127.0.0.1:33418/' },
  { host: 'MCP Inspector', redirectUris: ['http://localhost:6274/oauth/callback', 'http://localhost:6274/oauth/callback/debug'], use: 'http://localhost:6274/oauth/callback' },
]

describe.each(await targets())('MCP host callbacks on %s', (target) => {
  const world = mcpWorldPerFile(target)

  it.each(HOSTS)('$host registers dynamically and gets its code at its callback', async ({ host, redirectUris, use }) => {
    const reg = await fetch(`${world.svc.url}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: host, redirect_uris: redirectUris, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }),
    })
    expect(reg.status, await reg.clone().text()).toBe(201)
    const { client_id } = await reg.json()
    const res = await postConsent(world.a, {
      response_type: 'code',
      client_id,
      redirect_uri: use,
      scope: 'crm:read crm:write erp:read',
      state: 'st',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource: world.mcpUrl,
    })
    expect(res.statusCode, res.body).toBe(303)
    const back = location(res)
    expect(back.href.startsWith(use)).toBe(true)
    expect(back.searchParams.get('code')).toBeTruthy()
  })

  it('still refuses other non-reverse-domain schemes', async () => {
    for (const uri of ['cursor://anysphere.cursor-mcp/other', 'evil://anysphere.cursor-mcp/oauth/callback', 'javascript://x/%0aalert(1)']) {
      const reg = await fetch(`${world.svc.url}/api/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [uri], token_endpoint_auth_method: 'none' }) })
      expect(reg.status).toBe(400)
      expect((await reg.json()).error).toBe('invalid_redirect_uri')
    }
  })
})
