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
 * so that a drift in the shared machine's load falls on both; each round's ratio is printed. The
 * API is loaded by wrk where it is installed (`apt-get install wrk`: a C client, as pgbench is),
 * else by autocannon's command line, a process of its own either way; the service runs in a session
 * of its own (lib.ts spawnInOwnSession: on this machine a service sharing the load generator's
 * session got far more of the CPU than any outside check gives it). The bench prints the commands
 * of an outside check of the same figures. Then an evenly paced open loop at 0.5 and 0.8 of the
 * peak the headline measured (p50/p99), sorted and filtered pages beside the default page, a page
 * 400,000 records deep, the embedded default's throughput against PostgreSQL's, start-to-ready on
 * the embedded default, and the cost of the rate limits.
 *
 *   npm run bench:records            (BENCH_SECONDS=10 per run, BENCH_ROUNDS=3; BENCH_RESEED=1 to seed anew)
 *   BENCH_PACED_FRACTIONS=0.5,0.8 BENCH_PACED_RUNS=3   (the open loop's rates, as fractions of the measured peak; runs per rate)
 *   BENCH_ONLY=headline npm run bench:records        (only the baseline/API rounds, the open loop and the sorted/filtered pages)
 *   BENCH_COMPARE=/tmp/list-before BENCH_ONLY=headline npm run bench:records   (another checkout's service in the same rounds)
 *   BENCH_ONLY=rate-limits npm run bench:records     (only the rate-limit rounds; BENCH_ROUND_SECONDS=5, BENCH_ROUND_PAIRS=6)
 *   BENCH_ONLY=embedded npm run bench:records        (only the embedded default against PostgreSQL; BENCH_EMBEDDED_RECORDS=100000)
 *   BENCH_ONLY=replicas npm run bench:records        (only reads on a streaming replica against the primary alone, and the
 *                                                     read-your-writes check's cost: bench/records-replicas.ts; BENCH_REPLICA_ACCOUNTS=20000)
 */
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
import { childCpu, cpuSeconds, ensureDatabase, fmt, load, loadAutocannon, loadAverage, loadWrk, median, openLoop, pgbench, pgbenchArgs, printCommand, ROOT, sampleRss, SERVICE_NODE_FLAGS, serviceEnv, spawnInOwnSession, startServiceProcess, wrkArgs, wrkAvailable, writePgbenchScript, type LoadResult, type ServiceProcess } from './lib.ts'
import { seedEmbeddedOpportunities, seedOpportunities } from './seed-opportunities.ts'
import { replicaSection } from './records-replicas.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
/** Rounds of the headline (each a pgbench run and the API runs after it) and of the embedded comparison. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const PACED_RUNS = Number(process.env.BENCH_PACED_RUNS ?? 3)
/** The open loop's rates, as fractions of the peak the same run measured (BENCH_PACED_FRACTIONS). */
const PACED_FRACTIONS = (process.env.BENCH_PACED_FRACTIONS ?? '0.5,0.8').split(',').map(Number)
/** The list's latency goal is p99 < 20 ms at this rate. */
const GOAL_RATE = 1000
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

/**
 * A closed-loop run at 32 connections by the headline's load generator, a process of its own
 * (wrk, or autocannon's command line where wrk is not installed), with the generator's CPU per request.
 */
function closedLoop(generator: 'wrk' | 'autocannon') {
  return async (url: string, headers: Record<string, string>, seconds: number): Promise<LoadResult & { clientCpu: number }> => {
    const r = generator === 'wrk' ? loadWrk(url, headers, seconds) : loadAutocannon(url, headers, seconds)
    return { ...r, clientCpu: r.cpuPerRequest }
  }
}

/** A shell word: quoted when it holds anything but plain characters. */
const shellWord = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`)

/**
 * The headline's outside check, printed so that anyone can repeat it by hand in the same minutes:
 * the service started as this benchmark starts it, in a session of its own (setsid) on another port
 * (PUBLIC_URL stays the tokens' resource), wrk with the same connections and duration, and pgbench
 * on the same statement, kept in a file.
 */
function printOutsideCheck(url: string, script: string, token: string): void {
  const file = path.join(os.tmpdir(), 'cairn-bench-list.sql')
  writePgbenchScript(file, script)
  const port = 3801
  const env = { ...serviceEnv(port), DATABASE_URL: url, PUBLIC_URL: 'http://127.0.0.1:3701' }
  const service = ['setsid', 'env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), 'node_modules/.bin/node', ...SERVICE_NODE_FLAGS, 'src/server.ts']
  console.log(`  outside check (the same figures by hand, from ${ROOT}; autogroups: docs/benchmarks.md):`)
  console.log(`    ${service.map(shellWord).join(' ')} > /tmp/cairn-outside.log 2>&1 &`)
  console.log(`    wrk ${wrkArgs(`http://127.0.0.1:${port}/api/v1/opportunities?limit=50`, { authorization: `Bearer ${token}` }, SECONDS).map(shellWord).join(' ')}`)
  console.log(`    pgbench ${pgbenchArgs(url, file, SECONDS, 32, 'prepared').map(shellWord).join(' ')}`)
}

interface Contender {
  name: string
  service: ServiceProcess
}

/**
 * The headline: prepared pgbench and the API with each token, interleaved in rounds. Reports each
 * round's ratio of the API's requests/s to that round's pgbench transactions/s, the ratio of the
 * means with the rounds' range and median, and the service's CPU per request. With
 * BENCH_COMPARE=<another checkout> its service runs beside this one in every round, in alternating
 * order (before/after on the same machine state).
 */
async function headline(url: string, orgId: string, tokens: { erp: string; crm: string }, deepCursor: string): Promise<void> {
  const rounds = ROUNDS
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
  // else autocannon's command line; either as a process of its own, from this benchmark's session,
  // the service in a session of its own (bench/lib.ts spawnInOwnSession): what an outside check
  // from a shell measures. The autocannon round that ran inside this process is gone.
  const generator: 'wrk' | 'autocannon' = wrkAvailable() ? 'wrk' : 'autocannon'
  const run = closedLoop(generator)
  if (generator === 'autocannon') console.log(`\nwrk is not installed (apt-get install wrk): the API is loaded by autocannon's command line, which an outside wrk check will not match exactly`)
  console.log(
    `\nHeadline: ${rounds} rounds of pgbench -M prepared (the service's statement: bearer lookup, checks and keyset page of 50 in its envelope), ` +
      `then the API with crm:read erp:read and with crm:read only, loaded by ${generator}; 32 clients, ${SECONDS} s each; each round's ratio to its own pgbench run`,
  )
  const baselineTps: number[] = []
  const pgbenchCpu: number[] = []
  const runs = new Map<string, { results: (LoadResult & { clientCpu: number })[]; ratios: number[]; cpu: number }>()
  for (let i = 0; i < rounds; i++) {
    const load = loadAverage()
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
      const entry = runs.get(key) ?? { results: [], ratios: [], cpu: 0 }
      entry.results.push(r)
      entry.ratios.push(r.rps / baseline.tps)
      entry.cpu += cpuSeconds(c.service.child.pid!) - before
      runs.set(key, entry)
      line.push(`${key} ${fmt(r.rps)} req/s (${fmt(r.rps / baseline.tps, 2)})`)
    }
    console.log(`  round ${i + 1}: pgbench ${fmt(baseline.tps)} tx/s   ${line.join('   ')}   load average ${fmt(load, 1)}`)
  }
  const base = baselineTps.reduce((a, b) => a + b, 0) / baselineTps.length
  console.log(`  pgbench -M prepared: ${fmt(base)} tx/s (mean of rounds)   pgbench CPU ${fmt(median(pgbenchCpu))} µs/transaction`)
  for (const c of contenders) {
    for (const which of ['erp', 'crm'] as const) {
      const { results, ratios, cpu } = runs.get(`${c.name} ${which}`)!
      const rps = results.reduce((a, r) => a + r.rps, 0) / results.length
      const requests = results.reduce((a, r) => a + r.requests, 0)
      const errors = results.reduce((a, r) => a + r.non2xx, 0)
      const clientCpu = results.reduce((a, r) => a + r.clientCpu * r.requests, 0) / requests
      console.log(
        `  ${c.name.padEnd(7)} API ${which === 'erp' ? 'crm:read erp:read' : 'crm:read only    '} ${fmt(rps).padStart(6)} req/s   p50 ${fmt(median(results.map((r) => r.p50)), 1)} ms   p99 ${fmt(median(results.map((r) => r.p99)), 1)} ms   ` +
          `API/pgbench-prepared ${fmt(rps / base, 2)} (means; rounds ${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}, median ${fmt(median(ratios), 2)}; goal >= 0.5)   ` +
          `service CPU ${fmt((cpu / requests) * 1e6)} µs/request   ${generator} CPU ${fmt(clientCpu)} µs/request   errors ${errors}`,
      )
    }
  }
  const peak = runs.get('this erp')!.results.reduce((a, r) => a + r.rps, 0) / rounds
  printOutsideCheck(url, script, tokens.erp)

  // Open loop, evenly paced (lib.ts openLoop, a client process of its own), at fractions of the
  // peak this run measured (the headline rounds of the crm:read erp:read token, by its generator).
  // A fixed 1,000 req/s on a machine that peaks near 1,000 measured a queue, not the service: near
  // full use the wait in the queue grows without bound (p50 0.3-6 s in such a run on 2026-11-28).
  // BENCH_PACED_RUNS runs per rate, the bare server's and the services' alternating. The goal's own
  // rate, 1,000 req/s, runs too when it is at most the highest fraction of the peak.
  const pacedRuns = PACED_RUNS
  const fractions = PACED_FRACTIONS.filter((f) => f > 0 && f < 1)
  const rates = fractions.map((f) => ({ label: `${fmt(f, 2)} of the peak`, rate: Math.round(f * peak) }))
  const goalShare = GOAL_RATE / peak
  if (goalShare <= Math.max(...fractions)) rates.push({ label: `the goal's rate, ${fmt(goalShare, 2)} of the peak`, rate: GOAL_RATE })
  console.log(
    `\nOpen loop, evenly paced, at fractions of this run's peak: ${fmt(peak)} req/s (crm:read erp:read, the ${generator} rounds above); ` +
      `${rates.map((r) => `${r.label}: ${fmt(r.rate)} req/s`).join(', ')}; ${pacedRuns} run${pacedRuns > 1 ? 's' : ''} of ${SECONDS} s each`,
  )
  if (goalShare > Math.max(...fractions)) console.log(`  the goal (p99 < 20 ms at ${fmt(GOAL_RATE)} req/s) is not measured here: ${fmt(GOAL_RATE)} req/s is ${fmt(goalShare, 2)} of this machine's peak, where a run measures the queue`)
  // Baseline: a bare HTTP server answering the same page, in a process of its own, same rate, same client.
  const pageFile = path.join(os.tmpdir(), `cairn-bench-page-${process.pid}.json`)
  fs.writeFileSync(pageFile, await (await fetch(list(contenders[0]), { headers: bearer(tokens.erp) })).text())
  // In a session of its own, as the service: the same scheduling for both (bench/lib.ts spawnInOwnSession).
  const bare = spawnInOwnSession(path.join(ROOT, 'node_modules/.bin/node'), [path.join(ROOT, 'bench/bare-page-server.ts'), '3709', pageFile], { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise((resolve) => bare.stdout!.once('data', resolve))
  const targets: [string, string, Record<string, string>][] = [['bare HTTP server, same page', 'http://127.0.0.1:3709/', {}], ...contenders.map((c): [string, string, Record<string, string>] => [c.name, list(c), bearer(tokens.erp)])]
  for (const { label, rate } of rates) {
    const paced = new Map<string, LoadResult[]>()
    for (let i = 0; i < pacedRuns; i++) {
      for (const [name, target, headers] of targets) paced.set(name, [...(paced.get(name) ?? []), await openLoop(target, headers, rate, SECONDS)])
    }
    console.log(`  ${fmt(rate)} req/s (${label})`)
    for (const [name, runs] of paced) {
      console.log(
        `    ${name.padEnd(27)} p50 ${runs.map((r) => fmt(r.p50, 1)).join(' / ')} ms   p99 ${runs.map((r) => fmt(r.p99, 1)).join(' / ')} ms   ` +
          `median p99 ${fmt(median(runs.map((r) => r.p99)), 1)} ms   req/s ${fmt(Math.min(...runs.map((r) => r.rps)))}+   errors ${runs.reduce((a, r) => a + r.non2xx, 0)}`,
      )
    }
  }
  bare.kill()
  fs.rmSync(pageFile, { force: true })

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
      const r = await run(`${list(c)}${query}`, bearer(tokens[which]), SECONDS)
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
  const rounds = ROUNDS
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
  // Its own primary and standby: nothing of the seeded database below is needed.
  if (process.env.BENCH_ONLY === 'replicas') return replicaSection(SECONDS, ROUNDS)
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
  printCommand('bench:records', {
    BENCH_SECONDS: SECONDS,
    BENCH_ROUNDS: ROUNDS,
    ...(only ? { BENCH_ONLY: only } : {}),
    ...(process.env.BENCH_COMPARE ? { BENCH_COMPARE: process.env.BENCH_COMPARE } : {}),
    BENCH_PACED_RUNS: PACED_RUNS,
    BENCH_PACED_FRACTIONS: PACED_FRACTIONS.join(','),
  })
  if (only === 'rate-limits') return rateLimitOverhead(url, session)
  if (only === 'embedded') return embeddedThroughput(url, tokens.erp)
  await headline(url, orgId, tokens, deepCursor)
  if (only === 'headline') return
  await embeddedThroughput(url, tokens.erp)
  await readiness()
  await rateLimitOverhead(url, session)
  await replicaSection(SECONDS, ROUNDS)
}

await main()
