/**
 * /mcp at the HTTP level, where the SDK client would hide the details (checklist A and C.37-C.42):
 * the 401 challenge, bearer-only authentication bound to this resource, the Origin rule, protocol
 * versions, 405 for GET/DELETE, the HTTP 403 insufficient_scope before a tool runs, CORS.
 */
import { describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { buildTestApp } from '../helpers/build-app.ts'
import { loadConfig } from '../../src/config.ts'
import { SESSION_COOKIE } from '../../src/orgs/session.service.ts'
import { INITIALIZE, MCP_HEADERS, mcpWorldPerFile, postMcp, rpc, tokenFor } from './helpers.ts'

describe.each(await targets())('/mcp over HTTP on %s', (target) => {
  const world = mcpWorldPerFile(target)
  const prmUrl = () => `${world.svc.url}/.well-known/oauth-protected-resource/mcp`

  it('answers an unauthenticated initialize with 401 and the challenge that leads to the metadata', async () => {
    const res = await postMcp(world.mcpUrl, INITIALIZE, { origin: world.svc.url })
    expect(res.status).toBe(401)
    const challenge = res.headers.get('www-authenticate')!
    expect(challenge).toBe(`Bearer resource_metadata="${prmUrl()}", scope="crm:read crm:write erp:read"`)
    expect(challenge).not.toContain('error=') // RFC 6750 §3.1: no error when no credentials were sent
    expect(res.headers.get('access-control-expose-headers')).toContain('www-authenticate')
    const prm = await (await fetch(prmUrl())).json()
    expect(prm.resource).toBe(world.mcpUrl)
    expect(prm.authorization_servers).toEqual([world.svc.url])
  })

  it('takes bearer tokens for /mcp or the service origin only, from the header only', async () => {
    const mcpToken = await tokenFor(world, 'a', 'crm:read')
    const apiToken = await tokenFor(world, 'a', 'crm:read', world.svc.url)
    expect((await postMcp(world.mcpUrl, INITIALIZE, { authorization: `Bearer ${mcpToken}` })).status).toBe(200)
    expect((await postMcp(world.mcpUrl, INITIALIZE, { authorization: `bearer ${apiToken}` })).status).toBe(200) // scheme is case-insensitive

    const bad = await postMcp(world.mcpUrl, INITIALIZE, { authorization: 'Bearer crm_at_not-a-real-token' })
    expect(bad.status).toBe(401)
    expect(bad.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer resource_metadata="${prmUrl()}", error="invalid_token"`))

    const inQuery = await postMcp(`${world.mcpUrl}?access_token=${mcpToken}`, INITIALIZE)
    expect(inQuery.status).toBe(401)
    const malformed = await postMcp(world.mcpUrl, INITIALIZE, { authorization: `Token ${mcpToken}` })
    expect(malformed.status).toBe(401)
    expect(malformed.headers.get('www-authenticate')).toContain('error="invalid_request"')
    // A signed-in browser's session cookie is not a credential here.
    const cookie = await postMcp(world.mcpUrl, INITIALIZE, { cookie: `${SESSION_COOKIE}=${world.a.session}` })
    expect(cookie.status).toBe(401)
  })

  it('refuses a present Origin that is not allowed with 403, before looking at the token', async () => {
    const token = await tokenFor(world, 'a', 'crm:read')
    const evil = await postMcp(world.mcpUrl, INITIALIZE, { authorization: `Bearer ${token}`, origin: 'http://evil.example' })
    expect(evil.status).toBe(403)
    expect((await evil.json()).code).toBe('origin_not_allowed')
    expect((await postMcp(world.mcpUrl, INITIALIZE, { origin: 'http://evil.example' })).status).toBe(403)
    expect((await postMcp(world.mcpUrl, INITIALIZE, { authorization: `Bearer ${token}`, origin: world.svc.url })).status).toBe(200)
    expect((await postMcp(world.mcpUrl, INITIALIZE, { authorization: `Bearer ${token}` })).status).toBe(200)
  })

  it('allows the extra origins an operator lists in MCP_ALLOWED_ORIGINS', async () => {
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: 'http://localhost:6274, https://host.example' }).mcpAllowedOrigins).toEqual(['http://localhost:6274', 'https://host.example'])
    expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: 'https://host.example/path' })).toThrow(/bare http\(s\) origins/)
    const app = await buildTestApp(world.tdb.database, { MCP_ALLOWED_ORIGINS: 'http://localhost:6274' })
    try {
      const send = (origin: string) => app.inject({ method: 'POST', url: '/mcp', headers: { ...MCP_HEADERS, origin }, payload: INITIALIZE })
      expect((await send('http://localhost:6274')).statusCode).toBe(401) // past the Origin rule, stopped for the token
      expect((await send('http://localhost:3000')).statusCode).toBe(401) // its own PUBLIC_URL origin
      expect((await send('http://localhost:6275')).statusCode).toBe(403)
    } finally {
      await app.close()
    }
  })

  it('runs stateless: any request stands alone, an unsupported protocol version is a 400, GET and DELETE are 405', async () => {
    const token = await tokenFor(world, 'a', 'crm:read')
    const auth = { authorization: `Bearer ${token}` }
    const init = await postMcp(world.mcpUrl, INITIALIZE, auth)
    expect(init.headers.get('mcp-session-id')).toBeNull()
    expect((await init.json()).result.serverInfo.name).toBe('cairn-crm')
    // No initialize on this request, no session id: still answered (any process can take it).
    const list = await postMcp(world.mcpUrl, rpc('tools/list'), auth)
    expect(list.status).toBe(200)
    expect((await list.json()).result.tools.length).toBe(17)
    expect((await postMcp(world.mcpUrl, rpc('tools/list'), { ...auth, 'mcp-protocol-version': '1999-01-01' })).status).toBe(400)
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(world.mcpUrl, { method, headers: { ...auth, accept: 'text/event-stream' } })
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('POST')
    }
    expect((await fetch(world.mcpUrl, { method: 'GET' })).status).toBe(401)
  })

  it('answers a call beyond the granted scopes with HTTP 403 insufficient_scope, and runs nothing', async () => {
    const token = await tokenFor(world, 'a', 'crm:read')
    const auth = { authorization: `Bearer ${token}` }
    const write = await postMcp(world.mcpUrl, rpc('tools/call', { name: 'create_record', arguments: { kind: 'account', fields: { name: 'Nope' } } }), auth)
    expect(write.status).toBe(403)
    expect(write.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="crm:read crm:write", resource_metadata="${prmUrl()}", error_description="This call needs the scope crm:write"`,
    )
    expect((await write.json()).code).toBe('insufficient_scope')
    const accounts = await world.a.request({ method: 'GET', url: '/api/v1/accounts' })
    expect(JSON.parse(accounts.body).data).toEqual([])

    // Products need erp:read too, through tools and resources alike.
    const product = await postMcp(world.mcpUrl, rpc('tools/call', { name: 'list_records', arguments: { kind: 'product' } }), auth)
    expect(product.status).toBe(403)
    expect(product.headers.get('www-authenticate')).toContain('scope="crm:read erp:read"')
    const resource = await postMcp(world.mcpUrl, rpc('resources/read', { uri: 'cairn://products/0190d3c0-0000-7000-8000-000000000000' }), auth)
    expect(resource.status).toBe(403)
    const search = await postMcp(world.mcpUrl, rpc('tools/call', { name: 'search_records', arguments: { q: 'x', kinds: ['product'] } }), auth)
    expect(search.status).toBe(403)
    // A batch is refused whole when any of its calls is beyond the grant.
    const batch = await postMcp(world.mcpUrl, [rpc('tools/call', { name: 'get_record', arguments: { kind: 'account', id: '0190d3c0-0000-7000-8000-000000000000' } }, 1), rpc('tools/call', { name: 'delete_record', arguments: { kind: 'account', id: '0190d3c0-0000-7000-8000-000000000000' } }, 2)], { ...auth, 'mcp-protocol-version': '2025-03-26' })
    expect(batch.status).toBe(403)
    // Reads within the grant pass.
    const read = await postMcp(world.mcpUrl, rpc('tools/call', { name: 'list_records', arguments: { kind: 'account' } }), auth)
    expect(read.status).toBe(200)
    expect((await read.json()).result.structuredContent).toEqual({ data: [], next_cursor: null, has_more: false })
  })

  it('answers pages and records as structured content with the same JSON as text, as REST reads them, in batches too', async () => {
    const tricky = ['Quote " and backslash \\', 'Line\nbreak\ttab', 'Snow ☃ and 😀', '{"$cairn:raw":0}']
    const ids: string[] = []
    for (const name of tricky) {
      const res = await world.a.request({ method: 'POST', url: '/api/v1/accounts', payload: { name, description: `${name} — described` } })
      expect(res.statusCode).toBe(201)
      ids.push(JSON.parse(res.body).id)
    }
    const token = await tokenFor(world, 'a', 'crm:read')
    const stackTraceLimit = Error.stackTraceLimit
    const batch = await postMcp(
      world.mcpUrl,
      [rpc('tools/call', { name: 'list_records', arguments: { kind: 'account', limit: 3 } }, 1), rpc('tools/call', { name: 'get_record', arguments: { kind: 'account', id: ids[0] } }, 2)],
      { authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-03-26' },
    )
    expect(batch.status).toBe(200)
    // The route builds the SDK's close-time error without a stack, and puts the limit back.
    expect(Error.stackTraceLimit).toBe(stackTraceLimit)
    const body = await batch.text()
    expect(body).not.toContain('$cairn:raw:')
    const [page, record] = JSON.parse(body) as { id: number; result: { content: { type: string; text: string }[]; structuredContent: unknown } }[]
    const restPage = JSON.parse((await world.a.request({ method: 'GET', url: '/api/v1/accounts?limit=3' })).body)
    const restRecord = JSON.parse((await world.a.request({ method: 'GET', url: `/api/v1/accounts/${ids[0]}` })).body)
    expect([page!.id, record!.id]).toEqual([1, 2])
    expect(page!.result.structuredContent).toEqual(restPage)
    expect(JSON.parse(page!.result.content[0]!.text)).toEqual(restPage)
    expect(record!.result.structuredContent).toEqual(restRecord)
    expect(JSON.parse(record!.result.content[0]!.text)).toEqual(restRecord)
    expect(restPage.data.map((a: { name: string }) => a.name)).toEqual([...tricky].reverse().slice(0, 3))
  })

  it('refuses the tokens of a client revoked in Settings -> API on the very next request (C.41)', async () => {
    const token = await tokenFor(world, 'a', 'crm:read')
    expect((await postMcp(world.mcpUrl, rpc('tools/list'), { authorization: `Bearer ${token}` })).status).toBe(200)
    const revoked = await world.a.request({ method: 'DELETE', url: `/api/v1/settings/api-clients/${world.clientA.client_id}` })
    expect(revoked.statusCode).toBeLessThan(300)
    const after = await postMcp(world.mcpUrl, rpc('tools/list'), { authorization: `Bearer ${token}` })
    expect(after.status).toBe(401)
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  // Issue 29, item 6: a body nested 8,000 levels deep was a 500 (a recursive walk overflowed the
  // stack), one holding bytes that are not UTF-8 was read as U+FFFD. Both are JSON-RPC parse errors
  // (400, -32700), as malformed JSON is, naming the problem; the tool never runs.
  it('answers a body nested too deep, not UTF-8 or malformed with a JSON-RPC parse error, never a 500', async () => {
    const token = await tokenFor(world, 'a', 'crm:read crm:write')
    const call = (fields: string) => `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_record","arguments":{"kind":"account","fields":${fields}}}}`
    const deepArray = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`
    const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`
    const cases: Array<[string, string | Buffer, string]> = [
      ['arrays 8,000 deep', call(`{"name":"x","custom_fields":{"deep":${deepArray(8000)}}}`), 'nesting_too_deep'],
      ['objects 8,000 deep', call(`{"name":"x","custom_fields":${deepObject(8000)}}`), 'nesting_too_deep'],
      ['a bare array 100,000 deep', deepArray(100_000), 'nesting_too_deep'],
      ['objects 100,000 deep', deepObject(100_000), 'nesting_too_deep'],
      ['a byte that is not UTF-8', Buffer.concat([Buffer.from(call('{"name":"a')), Buffer.from([0xff]), Buffer.from('"}}}}')]), 'invalid_encoding'],
      ['an encoded surrogate', Buffer.concat([Buffer.from(call('{"name":"a')), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}}}')]), 'invalid_encoding'],
      ['malformed JSON', call('{"name":'), 'malformed_json'],
    ]
    for (const [label, body, problem] of cases) {
      const res = await fetch(world.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18', authorization: `Bearer ${token}` }, body: typeof body === 'string' ? body : new Uint8Array(body) })
      expect(res.status, label).toBe(400)
      expect(res.headers.get('content-type'), label).toMatch(/^application\/json/)
      const answer = await res.json()
      expect(answer, label).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /), data: { code: problem } } })
    }
    const accounts = await world.a.request({ method: 'GET', url: '/api/v1/accounts' })
    expect(JSON.parse(accounts.body).data).toEqual([])
  })

  it('answers CORS preflight for browser hosts and refuses oversize bodies with 413', async () => {
    const pre = await fetch(world.mcpUrl, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version')
    const token = await tokenFor(world, 'a', 'crm:write')
    const huge = rpc('tools/call', { name: 'create_record', arguments: { kind: 'account', fields: { name: 'x', description: 'y'.repeat(1100 * 1024) } } })
    const res = await postMcp(world.mcpUrl, huge, { authorization: `Bearer ${token}` })
    expect(res.status).toBe(413)
    expect((await res.json()).code).toBe('payload_too_large')
  })
})
