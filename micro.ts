import { buildApp } from './src/app.ts'
import { openPostgres } from './src/db/connect.ts'
import { testConfig, createOrgWithAdmin } from './test/helpers/build-app.ts'
import { confidentialClient, obtainTokens } from './test/oauth/helpers.ts'
const database = await openPostgres('postgres://postgres@127.0.0.1:5432/cairn_bench_mcp')
const app = await buildApp({ config: testConfig({ PUBLIC_URL: 'http://localhost:3000' }), database, logger: false })
await app.ready()
const m = await createOrgWithAdmin(app, 'Micro')
const c = await confidentialClient(app, m.orgId, { redirectUris: ['https://app.example.test/callback'] })
const t = await obtainTokens(app, m, c, { scope: 'crm:read crm:write erp:read', resource: 'http://localhost:3000' })
for (let i = 0; i < 60; i++) await m.request({ method: 'POST', url: '/api/v1/opportunities', payload: { name: 'Deal ' + i, amount: '12.50' } })
const auth = { authorization: `Bearer ${t.access_token}` }
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_records', arguments: { kind: 'opportunity', limit: 50 } } })
const rest = () => app.inject({ method: 'GET', url: '/api/v1/opportunities?limit=50', headers: auth })
const mcp = () => app.inject({ method: 'POST', url: '/mcp', headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }, payload: body })
const r1 = await mcp(); if (r1.statusCode !== 200) throw new Error(r1.body)
async function time(name: string, f: () => Promise<unknown>, n = 1500) {
  for (let i = 0; i < 200; i++) await f()
  const t0 = performance.now(); const cpu0 = process.cpuUsage()
  for (let i = 0; i < n; i++) await f()
  const cpu = process.cpuUsage(cpu0); const ms = performance.now() - t0
  console.log(name, (ms / n).toFixed(3), 'ms/req wall', ((cpu.user + cpu.system) / 1000 / n).toFixed(3), 'ms/req cpu')
}
const which = process.env.WHICH ?? 'both'
for (let k = 0; k < Number(process.env.ROUNDS ?? 1); k++) {
  if (which !== 'mcp') await time('rest', rest)
  if (which !== 'rest') await time('mcp', mcp)
}
await app.close(); await database.close()
