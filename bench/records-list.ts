/**
 * Benchmark of the records list endpoint (docs/benchmarks.md, Records list endpoint). Seeds 1,000,000
 * opportunities over 10 organizations on PostgreSQL (one holds 500,000), then measures
 * `GET /api/v1/opportunities?limit=50` as integrators call it: with a bearer access token, once
 * with `crm:read erp:read` and once with `crm:read` only (amounts read as null).
 *
 * The headline baseline is pgbench running the one statement the service runs per list request
 * (records/list-with-bearer.ts: the bearer lookup, its checks and the keyset page in its envelope),
 * built by the service's own builder, as a prepared statement as the service runs it
 * (db/prepared-pool.ts), in rounds interleaved with the API runs (pgbench, API, API, pgbench, ...)
 * so that a drift in the shared machine's load falls on both. The API is loaded by wrk where it is
 * installed (`apt-get install wrk`: a C client, as pgbench is; ~20 µs of CPU a request on the same
 * two cores), then once by autocannon (JS, in this process, 65-100 µs a request) for comparison. Then: an open-loop run at a fixed
 * 1,000 requests/s (p50/p99), sorted and filtered pages beside the default page, a page 400,000
 * records deep, the embedded default's throughput against PostgreSQL's, start-to-ready on the
 * embedded default, and the cost of the rate limits.
 *
 *   npm run bench:records            (BENCH_SECONDS=10 per run, BENCH_ROUNDS=2; BENCH_RESEED=1 to seed anew)
 *   BENCH_ONLY=headline npm run bench:records        (only the baseline/API rounds, the fixed rate and the sorted/filtered pages)
 *   BENCH_COMPARE=/tmp/list-before BENCH_ONLY=headline npm run bench:records   (another checkout's service in the same rounds)
 *   BENCH_ONLY=rate-limits npm run bench:records     (only the rate-limit rounds; BENCH_ROUND_SECONDS=5, BENCH_ROUND_PAIRS=6)
 *   BENCH_ONLY=embedded npm run bench:records        (only the embedded default against PostgreSQL; BENCH_EMBEDDED_RECORDS=100000)
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openPostgres } from '../src/db/connect.ts'
import { createSession, SESSION_COOKIE } from '../src/orgs/session.service.ts'
import { FIND_BEARER_SQL } from '../src/oauth/token.repository.ts'
import { kindsByName } from '../src/records/kinds/index.ts'
import { bearerListStatement } from '../src/records/list-with-bearer.ts'
import { sha256 } from '../src/shared/ids.ts'
import { insertAccessToken } from './bearer-token.ts'
import { childCpu, cpuSeconds, ensureDatabase, fmt, load, loadWrk, openLoop, pgbench, ROOT, sampleRss, startServiceProcess, wrkAvailable, type LoadResult, type ServiceProcess } from './lib.ts'
import { seedEmbeddedOpportunities, seedOpportunities } from './seed-opportunities.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
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

/**
 * The statement of one bearer list request, built by the service's own builder
 * (records/list-with-bearer.ts), with its parameters written in as literals for pgbench.
 */
function listRequestSql(tokenHash: Buffer, resource: string): string {
  const statement = bearerListStatement({ lookupSql: FIND_BEARER_SQL, tokenHash, now: new Date(), servedBy: [resource] }, kindsByName.opportunity, { limit: 50, filters: [] })
  // pgbench reads `:name` as a variable even inside quotes (`:3701` of the resource): colons as chr(58).
  const text = (v: unknown) => `'${String(v).replaceAll(':', "' || chr(58) || '")}'`
  const literal = (v: unknown): string => {
    if (Buffer.isBuffer(v)) return `'\\x${v.toString('hex')}'::bytea`
    if (Array.isArray(v)) return `ARRAY[${v.map(text).join(', ')}]::text[]`
    return text(v)
  }
  // From the highest number down, so $1 never eats the start of $10.
  const { params } = statement
  let sql = statement.text.replace(/CAST\(\$2 AS timestamptz\)/g, 'now()')
  for (let i = params.length; i >= 1; i--) sql = sql.replaceAll(`$${i}`, literal(params[i - 1]))
  return `${sql.replace(/\s+/g, ' ')};\n`
}

/** A closed-loop run at 32 connections by the headline's load generator, with the generator's own CPU per request. */
function closedLoop(generator: 'wrk' | 'autocannon') {
  return async (url: string, headers: Record<string, string>, seconds: number): Promise<LoadResult & { clientCpu: number }> => {
    if (generator === 'wrk') {
      const r = loadWrk(url, headers, seconds)
      return { ...r, clientCpu: r.cpuPerRequest }
    }
    const before = process.cpuUsage()
    const r = await load(url, headers, seconds)
    const used = process.cpuUsage(before)
    return { ...r, clientCpu: (used.user + used.system) / r.requests }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

interface Contender {
  name: string
  service: ServiceProcess
}

/**
 * The headline: prepared pgbench and the API with each token, interleaved in rounds. Reports the
 * ratio of the API's requests/s to the pgbench rounds' transactions/s (all runs averaged) and the
 * service's CPU per request. With BENCH_COMPARE=<another checkout> its service runs beside this
 * one in every round, in alternating order (before/after on the same machine state).
 */
async function headline(url: string, orgId: string, tokens: { erp: string; crm: string }, deepCursor: string): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
  const publicUrl = 'http://127.0.0.1:3701' // the tokens' resource: the same for every contender
  const contenders: Contender[] = [{ name: 'this', service: await startServiceProcess({ DATABASE_URL: url, PUBLIC_URL: publicUrl }, 3701) }]
  if (process.env.BENCH_COMPARE) contenders.push({ name: 'compare', service: await startServiceProcess({ DATABASE_URL: url, PUBLIC_URL: publicUrl }, 3705, process.env.BENCH_COMPARE) })
  if (contenders.length > 1) console.log(`\nthis = ${ROOT}, compare = ${process.env.BENCH_COMPARE}`)
  const rss = sampleRss(contenders[0].service.child.pid!)
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` })
  const list = (c: Contender) => `${c.service.url}/api/v1/opportunities?limit=50`
  const sample = (await (await fetch(list(contenders[0]), { headers: bearer(tokens.crm) })).json()) as { data: { amount: unknown }[] }
  console.log(`\nBearer tokens: crm:read only sees amount ${JSON.stringify(sample.data[0].amount)} (redacted)`)
  for (const c of contenders) {
    await load(list(c), bearer(tokens.erp), 3) // JIT, pool
    await load(list(c), bearer(tokens.crm), 2)
  }
  const script = listRequestSql(sha256(tokens.erp), publicUrl)
  // The baseline must read what a request reads: a token that passes and a full page of 50.
  const probe = new pg.Client({ connectionString: url })
  await probe.connect()
  const probed = (await probe.query(script)).rows[0] as { token: string | null; n: number }
  await probe.end()
  if (probed.token === null || probed.n !== 51) throw new Error(`the pgbench statement reads no full page (token ${probed.token === null ? 'not found' : 'found'}, ${probed.n} rows)`)
  // The HTTP side's load generator: wrk where installed (a C client, as pgbench is for PostgreSQL),
  // autocannon otherwise; with wrk, one autocannon round follows for comparison with earlier figures.
  const generators: ('wrk' | 'autocannon')[] = wrkAvailable() ? ['wrk', 'autocannon'] : ['autocannon']
  for (const generator of generators) {
    const reference = generator !== generators[0]
    const n = reference ? 1 : rounds
    const run = closedLoop(generator)
    console.log(
      `\n${reference ? 'For comparison, the same with autocannon (JS, in this benchmark process)' : 'Headline'}: ${n} round${n > 1 ? 's' : ''} of pgbench -M prepared (the service's statement: bearer lookup, checks and keyset page of 50 in its envelope), ` +
        `then the API with crm:read erp:read and with crm:read only, loaded by ${generator}; 32 clients, ${SECONDS} s each`,
    )
    const baselineTps: number[] = []
    const pgbenchCpu: number[] = []
    const runs = new Map<string, { results: (LoadResult & { clientCpu: number })[]; cpu: number }>()
    for (let i = 0; i < n; i++) {
      const clientBefore = childCpu()
      const baseline = pgbench(url, script, SECONDS, 32, 'prepared')
      baselineTps.push(baseline.tps)
      pgbenchCpu.push(((childCpu() - clientBefore) / (baseline.tps * SECONDS)) * 1e6)
      const order = contenders.flatMap((c) => (['erp', 'crm'] as const).map((which) => ({ c, which })))
      const line: string[] = []
      for (const { c, which } of i % 2 === 0 ? order : order.reverse()) {
        const before = cpuSeconds(c.service.child.pid!)
        const r = await run(list(c), bearer(tokens[which]), SECONDS)
        const key = `${c.name} ${which}`
        const entry = runs.get(key) ?? { results: [], cpu: 0 }
        entry.results.push(r)
        entry.cpu += cpuSeconds(c.service.child.pid!) - before
        runs.set(key, entry)
        line.push(`${key} ${fmt(r.rps)}`)
      }
      console.log(`  round ${i + 1}: pgbench ${fmt(baselineTps[i])} tx/s   ${line.join('   ')} req/s`)
    }
    const base = baselineTps.reduce((a, b) => a + b, 0) / baselineTps.length
    console.log(`  pgbench -M prepared: ${fmt(base)} tx/s (mean of rounds)   pgbench CPU ${fmt(median(pgbenchCpu))} µs/transaction`)
    for (const c of contenders) {
      for (const which of ['erp', 'crm'] as const) {
        const { results, cpu } = runs.get(`${c.name} ${which}`)!
        const rps = results.reduce((a, r) => a + r.rps, 0) / results.length
        const requests = results.reduce((a, r) => a + r.requests, 0)
        const errors = results.reduce((a, r) => a + r.non2xx, 0)
        const clientCpu = results.reduce((a, r) => a + r.clientCpu * r.requests, 0) / requests
        console.log(
          `  ${c.name.padEnd(7)} API ${which === 'erp' ? 'crm:read erp:read' : 'crm:read only    '} ${fmt(rps).padStart(6)} req/s   p50 ${fmt(median(results.map((r) => r.p50)), 1)} ms   p99 ${fmt(median(results.map((r) => r.p99)), 1)} ms   ` +
            `API/pgbench-prepared ${fmt(rps / base, 2)} (goal >= 0.5)   service CPU ${fmt((cpu / requests) * 1e6)} µs/request   ${generator} CPU ${fmt(clientCpu)} µs/request   errors ${errors}`,
        )
      }
    }
  }

  // Open loop at an evenly paced 1,000 requests/s (lib.ts openLoop, a client process of its own),
  // BENCH_PACED_RUNS runs each, the bare server's and the service's alternating; autocannon's
  // overallRate beside it for comparison with earlier figures (it sends each second's share in a burst).
  const pacedRuns = Number(process.env.BENCH_PACED_RUNS ?? 3)
  console.log(`\nFixed rate 1,000 req/s (crm:read erp:read, ${pacedRuns} runs of ${SECONDS} s; goal p99 < 20 ms)`)
  // Baseline: a bare HTTP server answering the same page, in a process of its own, same rate, same client.
  const pageFile = path.join(os.tmpdir(), `cairn-bench-page-${process.pid}.json`)
  fs.writeFileSync(pageFile, await (await fetch(list(contenders[0]), { headers: bearer(tokens.erp) })).text())
  const bare = spawn(path.join(ROOT, 'node_modules/.bin/node'), [path.join(ROOT, 'bench/bare-page-server.ts'), '3709', pageFile], { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise((resolve) => bare.stdout.once('data', resolve))
  const paced = new Map<string, LoadResult[]>()
  const targets: [string, string, Record<string, string>][] = [['bare HTTP server, same page', 'http://127.0.0.1:3709/', {}], ...contenders.map((c): [string, string, Record<string, string>] => [c.name, list(c), bearer(tokens.erp)])]
  for (let i = 0; i < pacedRuns; i++) {
    for (const [name, target, headers] of targets) paced.set(name, [...(paced.get(name) ?? []), await openLoop(target, headers, 1000, SECONDS)])
  }
  bare.kill()
  fs.rmSync(pageFile, { force: true })
  for (const [name, runs] of paced) {
    console.log(
      `  ${name.padEnd(27)} evenly paced open loop: p50 ${runs.map((r) => fmt(r.p50, 1)).join(' / ')} ms   p99 ${runs.map((r) => fmt(r.p99, 1)).join(' / ')} ms   ` +
        `median p99 ${fmt(median(runs.map((r) => r.p99)), 1)} ms   req/s ${fmt(Math.min(...runs.map((r) => r.rps)))}+   errors ${runs.reduce((a, r) => a + r.non2xx, 0)}`,
    )
  }
  for (const c of contenders) {
    const burst = await load(list(c), bearer(tokens.erp), SECONDS, 64, { overallRate: 1000 })
    console.log(`  ${c.name.padEnd(27)} autocannon overallRate (64 connections): ${fmt(burst.rps)} req/s   p50 ${fmt(burst.p50, 1)} ms   p99 ${fmt(burst.p99, 1)} ms   errors ${burst.non2xx}`)
  }

  // Sorted and filtered pages beside the default page of the same token (crm:read only pays the redaction).
  const pages: [string, string, 'erp' | 'crm'][] = [
    ['default', '', 'erp'],
    ['default', '', 'crm'],
    ['sort=-amount', '&sort=-amount', 'erp'],
    ['sort=close_date', '&sort=close_date', 'crm'],
    ['stage=proposal', '&stage=proposal', 'crm'],
    ['amount[gte]=50000', '&amount%5Bgte%5D=50000', 'erp'],
    ['deep (400,000 in)', `&cursor=${deepCursor}`, 'erp'],
  ]
  console.log(`\nPages beside the default page of the same token (32 connections, ${SECONDS} s each; goal: within 1.3x)`)
  const first = new Map<string, LoadResult>()
  for (const [name, query, which] of pages) {
    for (const c of contenders) {
      const r = await closedLoop(generators[0])(`${list(c)}${query}`, bearer(tokens[which]), SECONDS)
      const key = `${c.name} ${which}`
      if (!first.has(key)) first.set(key, r)
      const d = first.get(key)!
      console.log(
        `  ${c.name.padEnd(7)} ${which === 'erp' ? 'erp:read' : 'crm only'} ${name.padEnd(18)} ${fmt(r.rps).padStart(6)} req/s   p50 ${fmt(r.p50, 1)} ms   p99 ${fmt(r.p99, 1)} ms   ` +
          `vs default: ${fmt(d.rps / r.rps, 2)}x the time per request, p50 ${fmt(r.p50 / d.p50, 2)}x   errors ${r.non2xx}`,
      )
    }
  }
  console.log(`  peak service RSS (this): ${fmt(rss.stop())} MB (target < 250 MB)`)
  for (const c of contenders) await c.service.stop()
}

/**
 * The embedded default against PostgreSQL: the same bearer list (limit 50, crm:read erp:read) from
 * a service on each, in alternating rounds of the headline's load generator. The embedded folder
 * holds one organization of BENCH_EMBEDDED_RECORDS opportunities (100,000; a keyset page reads the
 * primary key either way), PostgreSQL the big organization of the headline.
 */
async function embeddedThroughput(url: string, pgToken: string): Promise<void> {
  const count = Number(process.env.BENCH_EMBEDDED_RECORDS ?? 100_000)
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-embedded-'))
  const started = performance.now()
  const seeded = await seedEmbeddedOpportunities(dir, count, 'http://127.0.0.1:3706')
  console.log(`\nEmbedded default against PostgreSQL (${fmt(count)} opportunities seeded in ${fmt((performance.now() - started) / 1000, 1)} s; ${rounds} rounds of ${SECONDS} s, 32 connections; goal >= 0.6)`)
  const services = {
    postgres: { service: await startServiceProcess({ DATABASE_URL: url, PUBLIC_URL: 'http://127.0.0.1:3701' }, 3701), token: pgToken },
    embedded: { service: await startServiceProcess({ DATA_DIR: dir, DATABASE_URL: '', PUBLIC_URL: 'http://127.0.0.1:3706' }, 3706), token: seeded.token },
  }
  const run = closedLoop(wrkAvailable() ? 'wrk' : 'autocannon')
  const page = (name: keyof typeof services) => `${services[name].service.url}/api/v1/opportunities?limit=50`
  const bearer = (name: keyof typeof services) => ({ authorization: `Bearer ${services[name].token}` })
  for (const name of ['postgres', 'embedded'] as const) await run(page(name), bearer(name), 3)
  const rps = { postgres: [] as number[], embedded: [] as number[] }
  for (let i = 0; i < rounds; i++) {
    const line: string[] = []
    for (const name of i % 2 === 0 ? (['postgres', 'embedded'] as const) : (['embedded', 'postgres'] as const)) {
      const before = cpuSeconds(services[name].service.child.pid!)
      const r = await run(page(name), bearer(name), SECONDS)
      rps[name].push(r.rps)
      line.push(`${name} ${fmt(r.rps)} req/s (p99 ${fmt(r.p99, 1)} ms, service CPU ${fmt(((cpuSeconds(services[name].service.child.pid!) - before) / r.requests) * 1e6)} µs/request, errors ${r.non2xx})`)
    }
    console.log(`  round ${i + 1}: ${line.join('   ')}`)
  }
  for (const { service } of Object.values(services)) await service.stop()
  fs.rmSync(dir, { recursive: true, force: true })
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  const ratio = mean(rps.embedded) / mean(rps.postgres)
  console.log(`  embedded / PostgreSQL: ${fmt(ratio, 2)} (goal >= 0.6): ${ratio >= 0.6 ? 'met' : 'NOT met'}`)
}

/** Start-to-ready on the embedded default with an existing data folder. */
async function readiness(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-ready-'))
  const cold = await startServiceProcess({ DATA_DIR: dir, DATABASE_URL: '' }, 3702)
  await cold.stop()
  const warm = await startServiceProcess({ DATA_DIR: dir, DATABASE_URL: '' }, 3702)
  await warm.stop()
  fs.rmSync(dir, { recursive: true, force: true })
  console.log(`\nEmbedded default start-to-ready: new folder ${fmt(cold.readyMs)} ms, existing folder ${fmt(warm.readyMs)} ms (target < 3 s)`)
}

async function main() {
  const url = await ensureDatabase(DB_NAME, process.env.BENCH_RESEED === '1')
  const { orgId, userId } = await seedOpportunities(url)
  const database = await openPostgres(url)
  const session = await createSession(database.db, userId, orgId, 3600)
  // Tokens inserted directly (bench/bearer-token.ts), bound to the service origin the bench starts.
  const resource = 'http://127.0.0.1:3701'
  const tokens = {
    erp: await insertAccessToken(database.db, orgId, userId, ['crm:read', 'erp:read'], resource),
    crm: await insertAccessToken(database.db, orgId, userId, ['crm:read'], resource),
  }
  await database.close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const deepCursor = (await client.query('SELECT id FROM opportunities WHERE org_id = $1 ORDER BY id DESC OFFSET 400000 LIMIT 1', [orgId])).rows[0].id as string
  await client.end()
  const only = process.env.BENCH_ONLY
  if (only === 'rate-limits') return rateLimitOverhead(url, session)
  if (only === 'embedded') return embeddedThroughput(url, tokens.erp)
  await headline(url, orgId, tokens, deepCursor)
  if (only === 'headline') return
  await embeddedThroughput(url, tokens.erp)
  await readiness()
  await rateLimitOverhead(url, session)
}

await main()
