/**
 * The official MCP TypeScript SDK's client-side `auth()` against this server: protected resource
 * metadata -> authorization server metadata -> dynamic client registration -> authorize (sign-in and
 * consent) with PKCE -> token exchange, then the token works (checklist section D).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auth } from '@modelcontextprotocol/sdk/client/auth.js'
import { MemoryOAuthProvider } from '../helpers/oauth-provider.ts'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'
import { consent, signIn, startLiveService, type LiveService } from '../helpers/live-service.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'

describe.each(await targets())('MCP SDK auth() on %s', (target) => {
  let tdb: TestDatabase
  let svc: LiveService
  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    svc = await startLiveService(tdb.database)
    await createOrganizationWithAdmin(svc.app.db, { name: 'SDK Org', adminEmail: 'sdk@example.test', adminPassword: 'password123' })
  })
  afterAll(async () => {
    await svc?.close()
    await tdb?.drop()
  })

  it('discovers, registers dynamically, authorizes with PKCE and exchanges the code', async () => {
    const provider = new MemoryOAuthProvider()
    const serverUrl = `${svc.url}/mcp`
    expect(await auth(provider, { serverUrl })).toBe('REDIRECT')
    expect(provider.client?.client_id).toMatch(/^crm_/)
    const url = provider.authorizationUrl!
    expect(url.origin + url.pathname).toBe(`${svc.url}/oauth/authorize`)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('resource')).toBe(serverUrl)

    const callback = await consent(url.href, await signIn(svc.url, 'sdk@example.test', 'password123'))
    expect(callback.searchParams.get('state')).toBe('sdk-state')
    expect(await auth(provider, { serverUrl, authorizationCode: callback.searchParams.get('code')! })).toBe('AUTHORIZED')
    expect(provider.saved?.access_token).toMatch(/^crm_at_/)
    expect(provider.saved?.token_type).toBe('Bearer')

    // The token was asked for /mcp: it serves /mcp only, so the REST API refuses it (RFC 8707).
    const rest = await fetch(`${svc.url}/api/v1/accounts`, { headers: { authorization: `Bearer ${provider.saved!.access_token}` } })
    expect(rest.status).toBe(401)
    expect(rest.headers.get('www-authenticate')).toContain('error="invalid_token"')

    // The SDK refreshes with its refresh token when asked again with stored tokens.
    const before = provider.saved!.access_token
    expect(await auth(provider, { serverUrl })).toBe('AUTHORIZED')
    expect(provider.saved!.access_token).not.toBe(before)
  })
})
