/**
 * The MCP conformance suite (@modelcontextprotocol/conformance, the npm CLI) against a live service,
 * at both revisions, for every server scenario that applies to a CRM server (docs/mcp.md lists the
 * others and why they do not apply). The suite's server runner sends no token, so it talks to the
 * service through a small HTTP proxy on loopback that adds organization A's bearer token to each
 * request and passes everything else (Origin, Host, Mcp- headers, bodies) through unchanged. The
 * tampered-state scenario calls a test tool of its own; the proxy points that one call at
 * `delete_record` of a real account, the tool whose state it must refuse.
 * Any FAILURE check of any scenario fails the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import http from 'node:http'
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { createTestDatabase, type TestDatabase } from '../helpers/databases.ts'
import { startLiveService, type LiveService } from '../helpers/live-service.ts'
import { createOrgWithAdmin } from '../helpers/build-app.ts'
import { confidentialClient, obtainTokens } from '../oauth/helpers.ts'

const run = promisify(execFile)
const CLI = path.resolve('node_modules/@modelcontextprotocol/conformance/dist/index.js')
const TAMPERED_TOOL = 'test_input_required_result_tampered_state'

/** Scenarios that apply to a CRM server, per revision (docs/mcp.md, Conformance). */
export const APPLICABLE: Record<string, string[]> = {
  '2025-11-25': ['server-initialize', 'ping', 'tools-list', 'resources-list', 'resources-templates-read', 'dns-rebinding-protection'],
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'resources-list',
    'sep-2164-resource-not-found',
    'dns-rebinding-protection',
    'caching',
    'http-header-validation',
    'input-required-result-non-tool-request',
    'input-required-result-unsupported-methods',
    'input-required-result-tampered-state',
  ],
}

interface Check {
  id: string
  status: string
  errorMessage?: string
}

/** A proxy that adds the bearer token (and maps the tampered-state tool onto delete_record). */
function authProxy(target: string, token: string, accountId: () => string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      let body = Buffer.concat(chunks)
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'content-length' && k !== 'connection') headers[k] = v
      headers.authorization = `Bearer ${token}`
      const text = body.toString('utf8')
      if (text.includes(TAMPERED_TOOL)) {
        const message = JSON.parse(text)
        message.params.name = 'delete_record'
        message.params.arguments = { kind: 'account', id: accountId() }
        if (headers['mcp-name']) headers['mcp-name'] = 'delete_record'
        body = Buffer.from(JSON.stringify(message))
      }
      const out = http.request(`${target}${req.url}`, { method: req.method, headers: { ...headers, 'content-length': String(body.length) } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      out.on('error', () => res.writeHead(502).end())
      out.end(body)
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) })
    }),
  )
}

async function checksOf(dir: string): Promise<Check[]> {
  const checks: Check[] = []
  for (const entry of await readdir(dir, { recursive: true })) {
    if (path.basename(entry) === 'checks.json') checks.push(...(JSON.parse(await readFile(path.join(dir, entry), 'utf8')) as Check[]))
  }
  return checks
}

// Not passing yet (see docs/mcp.md, Conformance): server-stateless fails on checks that need the
// suite's diagnostic tools and on subscriptions/listen, and closing the service after the suite hung.
// Skipped, so it is counted as skipped, never as passing, until it is finished.
describe.skip('MCP conformance suite against the live service', () => {
  let tdb: TestDatabase
  let svc: LiveService
  let proxy: { url: string; close(): Promise<void> }
  let accountId = ''
  let out: string

  beforeAll(async () => {
    tdb = await createTestDatabase('pglite')
    svc = await startLiveService(tdb.database)
    const a = await createOrgWithAdmin(svc.app, 'Conformance')
    const client = await confidentialClient(svc.app, a.orgId)
    const tokens = await obtainTokens(svc.app, a, client, { scope: 'crm:read crm:write erp:read', resource: `${svc.url}/mcp` })
    const account = await a.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Conformance Ltd' } })
    accountId = JSON.parse(account.body).id
    proxy = await authProxy(svc.url, tokens.access_token, () => accountId)
    out = await mkdtemp(path.join(tmpdir(), 'cairn-conformance-'))
  })
  afterAll(async () => {
    await proxy?.close()
    await svc?.close()
    await tdb?.drop()
    if (out) await rm(out, { recursive: true, force: true })
  })

  for (const [version, scenarios] of Object.entries(APPLICABLE)) {
    for (const scenario of scenarios) {
      it(`passes ${scenario} at ${version}`, async () => {
        const dir = path.join(out, `${version}-${scenario}`)
        const args = [CLI, 'server', '--url', `${proxy.url}/mcp`, '--scenario', scenario, '--spec-version', version, '-o', dir, '--timeout', '60000']
        const ran = (await run(process.execPath, args, { timeout: 120_000 }).catch((err: { stdout?: string; stderr?: string }) => err)) as { stdout?: string; stderr?: string }
        if (process.env.CONFORMANCE_VERBOSE) console.log(scenario, version, ran.stdout, ran.stderr)
        const checks = await checksOf(dir)
        expect(checks.length, `${scenario} at ${version} ran no checks`).toBeGreaterThan(0)
        expect(checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage}`)).toEqual([])
      }, 150_000)
    }
  }
})
