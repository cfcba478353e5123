/**
 * Benchmark of the MCP server (issue: MCP). Seeds one organization with 20,000 opportunities on
 * PostgreSQL, starts the service as a child process, gets one access token through the real flow
 * (sign-in, consent, code exchange; bound to the service origin, so it serves REST and /mcp), then
 * loads, alternately and three times each (BENCH_ROUNDS), `tools/call list_records {kind: opportunity,
 * limit: 50}` at POST /mcp and `GET /api/v1/opportunities?limit=50` (autocannon, 32 connections):
 * same data, same token, same run. Target: MCP at least 70% of REST's requests per second. Beside
 * requests/s it prints the service process's CPU time per request (/proc), which the machine's noise
 * moves less and which leaves out the load generator sharing the CPUs.
 *
 *   npm run bench:mcp        (BENCH_SECONDS=15 by default; BENCH_RESEED=1 to seed anew)
 */
import { sql } from 'kysely'
import { openPostgres } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../src/orgs/org.service.ts'
import { uuidv7 } from '../src/shared/ids.ts'
import { cpuSeconds, ensureDatabase, fmt, load, obtainToken, sampleRss, startServiceProcess, type LoadResult } from './lib.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
// Rounds alternate REST and MCP, so a slow spell of this shared machine hits both.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const RECORDS = 20_000
const PORT = 3720
const PUBLIC_URL = `http://127.0.0.1:${PORT}`
const ADMIN = { email: 'mcp-bench@bench.test', password: 'bench-password' }
const STAGES = ['prospecting', 'qualification', 'needs_analysis', 'proposal', 'negotiation', 'closed_won', 'closed_lost']

async function seed(url: string): Promise<string> {
  const database = await openPostgres(url)
  await migrateToLatest(database)
  const db = database.db
  const found = await sql<{ id: string }>`SELECT id FROM organizations WHERE name = 'MCP Bench'`.execute(db)
  let orgId = found.rows[0]?.id
  if (!orgId) {
    console.log(`Seeding ${fmt(RECORDS)} opportunities...`)
    ;({ orgId } = await createOrganizationWithAdmin(db, { name: 'MCP Bench', adminEmail: ADMIN.email, adminPassword: ADMIN.password }))
    const start = Date.parse('2026-01-01T00:00:00Z')
    for (let done = 0; done < RECORDS; done += 5000) {
      const ids = Array.from({ length: 5000 }, (_, i) => uuidv7(start - (done + i) * 60_000))
      await sql`
        INSERT INTO opportunities (org_id, id, created_at, updated_at, name, stage, amount, currency, probability)
        SELECT ${orgId}, id::uuid, now(), now(), 'Deal ' || n, (${STAGES}::text[])[1 + n % 7], (n * 37 % 100000)::numeric + 0.5, 'USD', n % 101
        FROM unnest(${ids}::text[]) WITH ORDINALITY AS t(id, n)`.execute(db)
    }
    await sql`VACUUM ANALYZE opportunities`.execute(db)
  }
  await database.close()
  return orgId
}

type Measured = LoadResult & { cpuMicros: number }

/** A load round with the service's CPU time per request it completed. */
async function withCpu(pid: number, run: () => Promise<LoadResult>): Promise<Measured> {
  const before = cpuSeconds(pid)
  const result = await run()
  return { ...result, cpuMicros: ((cpuSeconds(pid) - before) * 1e6) / result.requests }
}

async function main() {
  const url = await ensureDatabase('cairn_bench_mcp', process.env.BENCH_RESEED === '1')
  const orgId = await seed(url)
  const service = await startServiceProcess({ DATABASE_URL: url, PUBLIC_URL }, PORT)
  const rss = sampleRss(service.child.pid!)
  try {
    const token = await obtainToken(url, PUBLIC_URL, orgId, ADMIN, 'MCP bench host')
    const restUrl = `${service.url}/api/v1/opportunities?limit=50`
    const restHeaders = { authorization: `Bearer ${token}` }
    const mcpUrl = `${service.url}/mcp`
    const mcpHeaders = { ...restHeaders, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_records', arguments: { kind: 'opportunity', limit: 50 } } })

    // Both answer the same 50 records before anything is measured.
    const restPage = await (await fetch(restUrl, { headers: restHeaders })).json()
    const mcpReply = await (await fetch(mcpUrl, { method: 'POST', headers: mcpHeaders, body })).json()
    if (mcpReply.result?.isError || JSON.stringify(mcpReply.result?.structuredContent) !== JSON.stringify(restPage) || restPage.data.length !== 50) {
      throw new Error(`MCP and REST disagree: ${JSON.stringify(mcpReply).slice(0, 300)}`)
    }
    const restRun = () => load(restUrl, restHeaders, SECONDS)
    const mcpRun = () => load(mcpUrl, mcpHeaders, SECONDS, 32, { method: 'POST', body })
    // Warm up (JIT, connection pool) both paths before measuring.
    await load(restUrl, restHeaders, 3)
    await load(mcpUrl, mcpHeaders, 3, 32, { method: 'POST', body })

    console.log(`\nautocannon, 32 connections, ${ROUNDS} rounds of ${SECONDS} s each, alternating`)
    const rest: Measured[] = []
    const mcp: Measured[] = []
    const pid = service.child.pid!
    for (let round = 0; round < ROUNDS; round++) {
      rest.push(await withCpu(pid, restRun))
      mcp.push(await withCpu(pid, mcpRun))
    }
    const peakRss = rss.stop()
    const avg = (rs: Measured[], key: keyof Measured) => rs.reduce((n, r) => n + r[key], 0) / rs.length
    const row = (name: string, rs: Measured[]) =>
      console.log(`  ${name.padEnd(38)} ${fmt(avg(rs, 'rps')).padStart(6)} req/s  (rounds ${rs.map((r) => fmt(r.rps)).join(', ')})   p50 ${fmt(avg(rs, 'p50'), 1)} ms   p99 ${fmt(avg(rs, 'p99'), 1)} ms   service CPU ${fmt(avg(rs, 'cpuMicros'))} µs/request   errors ${rs.reduce((n, r) => n + r.non2xx, 0)}`)
    row('REST GET /api/v1/opportunities?limit=50', rest)
    row('MCP tools/call list_records limit 50', mcp)
    const ratio = avg(mcp, 'rps') / avg(rest, 'rps')
    console.log(`  MCP/REST ${fmt(ratio, 2)}   response bytes: REST ${fmt(JSON.stringify(restPage).length)}, MCP ${fmt(JSON.stringify(mcpReply).length)}   peak service RSS ${fmt(peakRss)} MB`)
    console.log(`  service CPU per request, REST/MCP ${fmt(avg(rest, 'cpuMicros') / avg(mcp, 'cpuMicros'), 2)} (the ratio the service alone allows; req/s also counts the load generator on the same CPUs)`)
    console.log(`\nTarget (MCP >= 0.70 of REST): ${ratio >= 0.7 ? 'met' : 'NOT met'}`)
  } finally {
    await service.stop()
  }
}

await main()
