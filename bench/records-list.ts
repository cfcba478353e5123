/**
 * Benchmark of the records list endpoint (issue: foundation). Seeds 1,000,000 opportunities over 10
 * organizations on PostgreSQL (one holds 500,000), then loads `GET /api/v1/opportunities?limit=50`
 * for the first page and for a page 400,000 records deep with autocannon (32 connections), and in
 * the same run the same SQL (credential lookup + keyset page) through pgbench, as the baseline.
 * Also measures start-to-ready time on the embedded default with an existing data folder, and the
 * cost of the rate limits (docs/api.md, Rate limits): the first page from a service with limits on
 * (set too high to refuse) against one with them off, in interleaved rounds of the same run.
 *
 *   npm run bench:records            (BENCH_SECONDS=15 by default; BENCH_RESEED=1 to seed anew)
 *   BENCH_ONLY=rate-limits npm run bench:records     (only the rate-limit rounds; BENCH_ROUND_SECONDS=5, BENCH_ROUND_PAIRS=6)
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openPostgres } from '../src/db/connect.ts'
import { createSession, FIND_SESSION_SQL, SESSION_COOKIE } from '../src/orgs/session.service.ts'
import { kindsByName } from '../src/records/kinds/index.ts'
import { recordJsonText } from '../src/records/record-sql.ts'
import { sha256 } from '../src/shared/ids.ts'
import { cpuSeconds, ensureDatabase, fmt, load, pgbench, sampleRss, startServiceProcess } from './lib.ts'
import { seedOpportunities } from './seed-opportunities.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
const DB_NAME = 'cairn_bench_records'

/**
 * Limits on against off, one service process each (both alive, one loaded at a time), in pairs of
 * rounds whose order alternates (off on, on off, ...), so that a drift in the machine's load falls on
 * both alike. Prints the ratio of all requests and the median of the pairs' ratios, which a burst
 * of other load in one round moves less.
 */
async function rateLimitOverhead(url: string, session: string): Promise<void> {
  const roundSeconds = Number(process.env.BENCH_ROUND_SECONDS ?? 5)
  const pairs = Number(process.env.BENCH_ROUND_PAIRS ?? 6)
  // Limits on are set too high to refuse (bench/lib.ts): the rounds measure the bookkeeping, leases and fields, not 429s.
  const off = await startServiceProcess({ DATABASE_URL: url, RATE_LIMIT_ENABLED: 'false' }, 3703)
  const on = await startServiceProcess({ DATABASE_URL: url, RATE_LIMIT_ENABLED: 'true' }, 3704)
  const headers = { cookie: `${SESSION_COOKIE}=${session}` }
  const page = '/api/v1/opportunities?limit=50'
  const sample = await fetch(`${on.url}${page}`, { headers })
  console.log(`\nRate limits: first page, limits on vs off, ${pairs} pairs of ${roundSeconds} s rounds, 32 connections`)
  console.log(`  on answers with RateLimit-Policy: ${sample.headers.get('ratelimit-policy')}   RateLimit: ${sample.headers.get('ratelimit')}`)
  await load(`${off.url}${page}`, headers, 3)
  await load(`${on.url}${page}`, headers, 3)
  const total = { on: 0, off: 0, errors: 0 }
  // Service CPU time per request: what the limits cost, less moved by other load than req/s.
  const cpu = { on: 0, off: 0 }
  const ratios: number[] = []
  for (let i = 0; i < pairs; i++) {
    const rps = { on: 0, off: 0 }
    for (const mode of i % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const service = mode === 'on' ? on : off
      const cpuBefore = cpuSeconds(service.child.pid!)
      const r = await load(`${service.url}${page}`, headers, roundSeconds)
      cpu[mode] += cpuSeconds(service.child.pid!) - cpuBefore
      rps[mode] = r.rps
      total[mode] += r.requests
      total.errors += r.non2xx
    }
    ratios.push(rps.on / rps.off)
    console.log(`  pair ${i + 1}: off ${fmt(rps.off).padStart(6)} req/s   on ${fmt(rps.on).padStart(6)} req/s   on/off ${fmt(rps.on / rps.off, 3)}`)
  }
  await off.stop()
  await on.stop()
  const ratio = total.on / total.off
  const median = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)]
  console.log(`  service CPU per request: off ${fmt((cpu.off / total.off) * 1e6)} µs   on ${fmt((cpu.on / total.on) * 1e6)} µs`)
  console.log(`  on/off throughput: all requests ${fmt(ratio, 3)}, median of pairs ${fmt(median, 3)} (target >= 0.95): ${ratio >= 0.95 && total.errors === 0 ? 'met' : 'NOT met'}   errors ${total.errors}`)
}

async function main() {
  const url = await ensureDatabase(DB_NAME, process.env.BENCH_RESEED === '1')
  const { orgId, userId } = await seedOpportunities(url)
  const database = await openPostgres(url)
  const session = await createSession(database.db, userId, orgId, 3600)
  await database.close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const deepCursor = (await client.query('SELECT id FROM opportunities WHERE org_id = $1 ORDER BY id DESC OFFSET 400000 LIMIT 1', [orgId])).rows[0].id as string
  await client.end()
  if (process.env.BENCH_ONLY === 'rate-limits') return rateLimitOverhead(url, session)

  // The same statements the service runs per request: the session lookup, then the keyset page.
  const kind = kindsByName.opportunity
  const hash = sha256(session).toString('hex')
  const pageSql = (cursor: string | null) => `${FIND_SESSION_SQL.replace('$1', `'\\x${hash}'`)};
SELECT r.id, ${recordJsonText(kind, 'r')} AS j FROM opportunities r WHERE r.org_id = '${orgId}'${cursor ? ` AND r.id < '${cursor}'` : ''} ORDER BY r.id DESC LIMIT 51;
`
  console.log(`\nBaseline: pgbench, 32 clients, ${SECONDS} s, session lookup + keyset page of 50`)
  const pgFirst = pgbench(url, pageSql(null), SECONDS)
  const pgDeep = pgbench(url, pageSql(deepCursor), SECONDS)
  console.log(`  first page: ${fmt(pgFirst.tps)} tx/s   deep page: ${fmt(pgDeep.tps)} tx/s   (simple protocol: parse + plan per statement)`)
  // The service runs these as prepared statements (db/prepared-pool.ts); show that baseline too.
  const pgPrepared = pgbench(url, pageSql(null), SECONDS, 32, 'prepared')
  console.log(`  first page, prepared statements: ${fmt(pgPrepared.tps)} tx/s`)

  const service = await startServiceProcess({ DATABASE_URL: url }, 3701)
  const rss = sampleRss(service.child.pid!)
  const headers = { cookie: `${SESSION_COOKIE}=${session}` }
  // Warm up (JIT, connection pool) before measuring.
  await load(`${service.url}/api/v1/opportunities?limit=50`, headers, 3)
  console.log(`\nAPI: autocannon, 32 connections, ${SECONDS} s`)
  const first = await load(`${service.url}/api/v1/opportunities?limit=50`, headers, SECONDS)
  const deep = await load(`${service.url}/api/v1/opportunities?limit=50&cursor=${deepCursor}`, headers, SECONDS)
  const peakRss = rss.stop()
  await service.stop()

  const row = (name: string, r: typeof first, base: number) =>
    console.log(`  ${name.padEnd(11)} ${fmt(r.rps).padStart(7)} req/s   p50 ${fmt(r.p50, 1)} ms   p99 ${fmt(r.p99, 1)} ms   API/pgbench ${fmt(r.rps / base, 2)}   errors ${r.non2xx}`)
  row('first page', first, pgFirst.tps)
  row('deep page', deep, pgDeep.tps)
  console.log(`  first page API/pgbench-prepared ${fmt(first.rps / pgPrepared.tps, 2)}`)
  console.log(`  deep/first p50 latency: ${fmt(deep.p50 / first.p50, 2)}x   peak service RSS: ${fmt(peakRss)} MB`)

  // Start-to-ready on the embedded default with an existing data folder.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-ready-'))
  const cold = await startServiceProcess({ DATA_DIR: dir, DATABASE_URL: '' }, 3702)
  await cold.stop()
  const warm = await startServiceProcess({ DATA_DIR: dir, DATABASE_URL: '' }, 3702)
  await warm.stop()
  fs.rmSync(dir, { recursive: true, force: true })
  console.log(`\nEmbedded default start-to-ready: new folder ${fmt(cold.readyMs)} ms, existing folder ${fmt(warm.readyMs)} ms`)

  const ok = first.rps / pgFirst.tps >= 0.4 && deep.p50 <= first.p50 * 1.2 && peakRss < 250 && warm.readyMs < 3000
  console.log(`\nTargets (ratio >= 0.4, deep within 1.2x, RSS < 250 MB, ready < 3 s): ${ok ? 'met' : 'NOT met'}`)

  await rateLimitOverhead(url, session)
}

await main()
