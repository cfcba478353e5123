/**
 * Benchmark of webhook delivery (issue: webhooks), on PostgreSQL with a receiver on loopback:
 *  1. the API's write throughput (POST /api/v1/accounts, autocannon) with no webhook and with one
 *     subscribed webhook, alternating, in one service process that also delivers;
 *  2. deliveries per second: 10,000 changes queued while no process delivers (SERVICE_ROLE=web),
 *     then one `worker` process drains them; after it, a bare Node HTTP client posting the same
 *     bodies to the same receiver with the same concurrency (the ceiling of this machine); in
 *     BENCH_DELIVERY_ROUNDS rounds (3), each printed, then the medians;
 *  3. commit-to-receipt latency p50/p99 at a steady STEADY_RATE changes per second (default 1,000);
 *  4. the change feed: events per second read through GET /api/v1/events (pages of 1,000, one and
 *     four readers), beside the same statement run directly with node-postgres.
 *
 *   npm run bench:webhooks          (BENCH_SECONDS=8 per write-throughput round; BENCH_PHASES=1,2,3,4; BENCH_DELIVERY_ROUNDS=3)
 */
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { ChildProcess } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import autocannon from 'autocannon'
import pg from 'pg'
import { openPostgres } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../src/orgs/org.service.ts'
import { createSession, findSession, SESSION_COOKIE } from '../src/orgs/session.service.ts'
import { backendCpu, cpuSeconds, ensureDatabase, fmt, loadAverage, median, printCommand, ROOT, SERVICE_NODE_FLAGS, spawnInOwnSession, startServiceProcess } from './lib.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const CHANGES = 10_000
const CONCURRENCY = 64
// BENCH_PHASES=3 runs only the latency phase, for instance.
const PHASES = new Set((process.env.BENCH_PHASES ?? '1,2,3,4').split(',').map(Number))
const STEADY_RATE = Number(process.env.STEADY_RATE ?? 1000)
const STEADY_SECONDS = 20
const DELIVERY_ROUNDS = Number(process.env.BENCH_DELIVERY_ROUNDS ?? 3)
const DB_NAME = 'cairn_bench_webhooks'
// BENCH_WORKER_NODE_FLAGS adds flags to the worker process, e.g. --cpu-prof --cpu-prof-dir=/tmp/prof.
const WORKER_FLAGS = (process.env.BENCH_WORKER_NODE_FLAGS ?? '').split(' ').filter(Boolean)

interface Receiver {
  url: string
  count: number
  firstAt: number
  lastAt: number
  latencies: number[]
  reset(): void
  close(): void
}

/** Counts deliveries; latency = receipt time minus the record's created_at (set just before commit). */
async function startReceiver(): Promise<Receiver> {
  const r: Receiver = {
    url: '',
    count: 0,
    firstAt: 0,
    lastAt: 0,
    latencies: [],
    reset() {
      r.count = 0
      r.firstAt = 0
      r.lastAt = 0
      r.latencies = []
    },
    close: () => server.close(),
  }
  const server = http.createServer({ keepAliveTimeout: 5000 }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const now = Date.now()
      r.count++
      r.firstAt ||= performance.now()
      r.lastAt = performance.now()
      const created = /"created_at":"([^"]+)"/.exec(Buffer.concat(chunks).toString('utf8'))?.[1]
      if (created) r.latencies.push(now - Date.parse(created))
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench`
  return r
}

/** One POST over `agent`; resolves when the answer is read (fails on a non-2xx). */
function post(target: string, headers: Record<string, string>, body: string, agent: http.Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      res.resume()
      res.on('end', () => (res.statusCode! < 300 ? resolve() : reject(new Error(`write answered ${res.statusCode}`))))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A `worker` process, once it says it is running (its start-up can take seconds on a busy machine). */
async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  // In a session of its own, as the service (bench/lib.ts spawnInOwnSession says why).
  const worker = spawnInOwnSession(path.join(ROOT, 'node_modules/.bin/node'), [...SERVICE_NODE_FLAGS, ...WORKER_FLAGS, path.join(ROOT, 'src/worker.ts')], {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    let out = ''
    worker.once('exit', () => reject(new Error('the worker exited during start')))
    worker.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      if (out.includes('is running')) resolve()
    })
  })
  worker.stdout!.resume()
  return worker
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

async function writeRate(url: string, headers: Record<string, string>, seconds: number): Promise<number> {
  const r = await autocannon({ url: `${url}/api/v1/accounts`, method: 'POST', connections: 32, duration: seconds, headers, body: JSON.stringify({ name: 'Bench account' }) })
  if (r.non2xx + r.errors > 0) throw new Error(`write load had ${r.non2xx} non-2xx and ${r.errors} errors`)
  return r.requests.average
}

/** The ceiling: a bare Node client POSTing a delivery-sized body over keep-alive connections, same concurrency. */
async function bareHttpRate(target: string, total: number): Promise<number> {
  const body = JSON.stringify({ id: 'x', type: 'account.created', timestamp: new Date().toISOString(), organization_id: 'x', data: { object: { id: 'x', name: 'Bench account', created_at: new Date().toISOString() } } })
  let sent = 0
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const t0 = performance.now()
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume()
        res.on('end', resolve)
      })
      req.on('error', reject)
      req.end(body)
    })
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < total) {
        sent++
        await one()
      }
    }),
  )
  const rate = total / ((performance.now() - t0) / 1000)
  agent.destroy()
  return rate
}

async function main() {
  const url = await ensureDatabase(DB_NAME, true)
  const database = await openPostgres(url)
  await migrateToLatest(database)
  const { orgId, userId } = await createOrganizationWithAdmin(database.db, { name: 'Bench', adminEmail: 'bench@bench.test', adminPassword: 'bench-password' })
  const session = await createSession(database.db, userId, orgId, 3600)
  const csrf = (await findSession(database.db, session))!.csrfToken
  await database.close()
  const headers = { cookie: `${SESSION_COOKIE}=${session}`, 'x-csrf-token': csrf, 'content-type': 'application/json' }
  const receiver = await startReceiver()
  const sql = new pg.Client({ connectionString: url })
  await sql.connect()
  const pending = async () => Number((await sql.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`)).rows[0].n)

  const env = { DATABASE_URL: url, ALLOW_PRIVATE_OUTBOUND: 'true' }
  printCommand('bench:webhooks', { BENCH_SECONDS: SECONDS, BENCH_PHASES: [...PHASES].join(','), BENCH_DELIVERY_ROUNDS: DELIVERY_ROUNDS, STEADY_RATE })
  console.log(`Webhook benchmark on PostgreSQL; receiver on loopback; service flags ${SERVICE_NODE_FLAGS.join(' ')}\n`)

  // 1. Write throughput with and without a subscriber, alternating to spread machine noise.
  let service = await startServiceProcess(env, 3711)
  service.child.stdout!.pipe(fs.createWriteStream(path.join(os.tmpdir(), 'cairn-bench-webhooks.log')))
  const created = await fetch(`${service.url}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url, events: ['account.created'], secret: 'bench signing secret!' }) })
  const hook = (await created.json()) as { id: string }
  const setHook = (status: 'active' | 'disabled') => fetch(`${service.url}/api/v1/webhooks/${hook.id}`, { method: 'PATCH', headers, body: JSON.stringify({ status }) })
  await setHook('disabled')
  await writeRate(service.url, headers, 3) // warm-up
  await setHook('active')
  const none: number[] = []
  const one: number[] = []
  // Deliveries the round left behind (a saturated process lets its requests go first) and how long
  // sending them took once the writes stopped.
  const left: Array<{ pending: number; drainMs: number }> = []
  for (let round = 0; round < (PHASES.has(1) ? 2 : 0); round++) {
    await setHook('disabled')
    none.push(await writeRate(service.url, headers, SECONDS))
    await setHook('active')
    one.push(await writeRate(service.url, headers, SECONDS))
    const roundEnd = performance.now()
    const behind = await pending()
    await until(async () => (await pending()) === 0, 120_000, 'the deliveries of the round')
    left.push({ pending: behind, drainMs: performance.now() - roundEnd })
  }
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  if (PHASES.has(1)) console.log(`1. API writes (POST /api/v1/accounts, 32 connections, ${SECONDS} s x 2 rounds each)`)
  if (PHASES.has(1)) console.log(`   no webhook: ${fmt(avg(none))} writes/s   one subscribed webhook: ${fmt(avg(one))} writes/s   change: ${fmt((avg(one) / avg(none) - 1) * 100, 1)}%`)
  if (PHASES.has(1)) console.log(`   deliveries still queued when each round's writes stopped: ${left.map((l) => `${fmt(l.pending)} (all sent ${fmt(l.drainMs / 1000, 1)} s later)`).join(', ')}`)
  await service.stop()

  // 2. Delivery throughput: queue 10,000 with no deliverer, then one worker drains them.
  if (PHASES.has(2)) await deliveryThroughput(env, headers, receiver, pending, sql)
  if (PHASES.has(3)) await steadyLatency(env, headers, receiver, pending, PHASES.has(1) ? avg(one) : undefined)
  if (PHASES.has(4)) await feedReads(env, headers, sql, orgId)
  await sql.end()
  receiver.close()
}

interface DeliveryRound {
  rate: number
  bare: number
  seconds: number
  /** CPU µs per delivery: the worker process, the bench database's backends, this process (the receiver). */
  worker: number
  postgres: number
  receiver: number
  load: number
}

/**
 * One round of phase 2: 10,000 changes queued through an API-only process (SERVICE_ROLE=web, no
 * deliverer), then one `worker` process drains them; then the bare client posts as many to the same
 * receiver (the baseline, right after, on the same machine state).
 */
async function deliveryRound(env: Record<string, string>, headers: Record<string, string>, receiver: Receiver, pending: () => Promise<number>, sql: pg.Client): Promise<DeliveryRound> {
  const service = await startServiceProcess({ ...env, SERVICE_ROLE: 'web' }, 3712)
  await sql.query(`DELETE FROM webhook_deliveries`)
  const queue = await autocannon({ url: `${service.url}/api/v1/accounts`, method: 'POST', connections: 32, amount: CHANGES, headers, body: JSON.stringify({ name: 'Queued account' }) })
  if (queue.non2xx + queue.errors > 0) throw new Error('queueing writes failed')
  await service.stop()
  const queued = await pending()
  receiver.reset()
  const load = loadAverage()
  const worker = await startWorker(env)
  const workerCpuAtStart = cpuSeconds(worker.pid!)
  const postgres = backendCpu(DB_NAME)
  const benchCpuAtStart = process.cpuUsage()
  await until(() => receiver.count >= queued, 300_000, 'the worker to drain the queue')
  const seconds = (receiver.lastAt - receiver.firstAt) / 1000
  // CPU per delivery of the worker (from its readiness), of the database's backends (each followed
  // by pid, bench/lib.ts backendCpu: the worker's, and this process's idle one), and of this
  // process (the receiver).
  const perDelivery = (cpu: number) => (cpu / queued) * 1e6
  const workerCpu = cpuSeconds(worker.pid!) - workerCpuAtStart
  const dbCpu = postgres.stop()
  const bench = process.cpuUsage(benchCpuAtStart)
  worker.kill('SIGTERM')
  await new Promise((r) => worker.once('exit', r))
  const bare = await bareHttpRate(receiver.url, queued)
  return { rate: queued / seconds, bare, seconds, worker: perDelivery(workerCpu), postgres: perDelivery(dbCpu), receiver: perDelivery((bench.user + bench.system) / 1e6), load }
}

/**
 * 2. Delivery throughput, DELIVERY_ROUNDS rounds (each a queue drained by a fresh worker, then the
 * bare client): each round printed, then the medians. One round per invocation could not tell a
 * change from the machine's noise.
 */
async function deliveryThroughput(env: Record<string, string>, headers: Record<string, string>, receiver: Receiver, pending: () => Promise<number>, sql: pg.Client) {
  console.log(`\n2. Delivery throughput: ${fmt(CHANGES)} queued deliveries drained by one worker process (concurrency ${CONCURRENCY}), ${DELIVERY_ROUNDS} rounds; each delivery = claim, HMAC, POST, attempt log`)
  console.log(`   baseline: a bare Node HTTP client posting as many delivery-sized bodies to the same receiver with the same concurrency, right after each drain`)
  const rounds: DeliveryRound[] = []
  for (let i = 0; i < DELIVERY_ROUNDS; i++) {
    const r = await deliveryRound(env, headers, receiver, pending, sql)
    rounds.push(r)
    console.log(
      `   round ${i + 1}: worker ${fmt(r.rate)} deliveries/s (first to last receipt ${fmt(r.seconds, 2)} s)   bare client ${fmt(r.bare)} POST/s   ratio ${fmt(r.rate / r.bare, 2)}   ` +
        `CPU µs/delivery: worker ${fmt(r.worker)}, PostgreSQL ${fmt(r.postgres)}, receiver ${fmt(r.receiver)}   load average ${fmt(r.load, 1)}`,
    )
  }
  const med = (pick: (r: DeliveryRound) => number) => median(rounds.map(pick))
  console.log(`   median: worker ${fmt(med((r) => r.rate))} deliveries/s   bare client ${fmt(med((r) => r.bare))} POST/s   ratio ${fmt(med((r) => r.rate / r.bare), 2)}   CPU µs/delivery: worker ${fmt(med((r) => r.worker))}, PostgreSQL ${fmt(med((r) => r.postgres))}`)
}

/** Latency at a steady rate (open loop: requests go out on schedule, whatever the answers). */
async function steadyLatency(env: Record<string, string>, headers: Record<string, string>, receiver: Receiver, pendingCount?: () => Promise<number>, writePeak?: number) {
  // STEADY_WORKER=1: the API process only serves requests and one `npm run worker` delivers, as an
  // operator would split a busy deployment (README, Webhooks).
  const split = process.env.STEADY_WORKER === '1'
  const service = await startServiceProcess(split ? { ...env, SERVICE_ROLE: 'web' } : env, 3713)
  // The load starts once the worker is ready: its start-up (seconds on a loaded machine) is not
  // what this phase measures.
  const worker = split ? await startWorker(env) : null
  service.child.stdout!.pipe(fs.createWriteStream(path.join(os.tmpdir(), 'cairn-bench-webhooks-latency.log')))
  receiver.reset()
  // Requests go out on schedule whatever the answers (open loop), over at most 256 keep-alive
  // connections: a writer that fell behind queues them here rather than opening thousands of sockets.
  const writer = new http.Agent({ keepAlive: true, maxSockets: 256 })
  const total = STEADY_RATE * STEADY_SECONDS
  let issued = 0
  const t0 = performance.now()
  const inflight: Promise<unknown>[] = []
  // BENCH_TIMELINE=1: one line per second (writes answered, deliveries received and queued, the p99
  // of that second's receipts), to see where a tail comes from.
  let answered = 0
  const timeline: string[] = []
  let seen = 0
  const sampler = setInterval(() => {
    if (process.env.BENCH_TIMELINE !== '1') return
    const fresh = receiver.latencies.slice(seen)
    seen = receiver.latencies.length
    void pendingCount?.().then((queued) =>
      timeline.push(`   t=${fmt((performance.now() - t0) / 1000, 0)}s issued ${issued} answered ${answered} received ${receiver.count} queued ${queued} p99 of this second ${fresh.length ? fmt(percentile(fresh, 99)) : '-'} ms`),
    )
  }, 1000)
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * STEADY_RATE))
      while (issued < due) {
        issued++
        inflight.push(post(`${service.url}/api/v1/accounts`, headers, JSON.stringify({ name: `Steady ${issued}` }), writer).then(() => answered++))
      }
      if (issued >= total) {
        clearInterval(tick)
        resolve()
      }
    }, 2)
  })
  await Promise.all(inflight)
  await until(() => receiver.count >= total, 60_000, 'the steady-rate deliveries')
  clearInterval(sampler)
  console.log(
    `\n3. Commit-to-receipt latency at ${STEADY_RATE} changes/s for ${STEADY_SECONDS} s (${fmt(receiver.latencies.length)} deliveries, ${split ? 'an API process writing, a worker process delivering' : 'one process writing and delivering'})`,
  )
  // Near the write path's peak an open loop measures its queue, not the path (docs/benchmarks.md,
  // the open loop of the list benchmark): say how close this rate is to phase 1's peak.
  if (writePeak) console.log(`   ${STEADY_RATE} changes/s is ${fmt(STEADY_RATE / writePeak, 2)} of phase 1's write rate with a subscribed webhook (${fmt(writePeak)}/s)${STEADY_RATE > 0.8 * writePeak ? ': above 0.8, so the figures below are mostly the queue' : ''}`)
  for (const line of timeline) console.log(line)
  console.log(`   p50 ${fmt(percentile(receiver.latencies, 50))} ms   p99 ${fmt(percentile(receiver.latencies, 99))} ms   max ${fmt(Math.max(...receiver.latencies))} ms`)
  writer.destroy()
  worker?.kill('SIGTERM')
  if (worker) await new Promise((r) => worker.once('exit', r))
  await service.stop()
}

/** Reads the whole journal page by page, as a feed reader does; answers events per second. */
async function readWholeFeed(read: (after: number) => Promise<{ count: number; nextAfter: number; hasMore: boolean }>): Promise<{ events: number; seconds: number }> {
  const t0 = performance.now()
  let after = 0
  let events = 0
  for (;;) {
    const page = await read(after)
    events += page.count
    after = page.nextAfter
    if (!page.hasMore) break
  }
  return { events, seconds: (performance.now() - t0) / 1000 }
}

/** 4. The change feed's read speed: the API against its own statement run directly. */
async function feedReads(env: Record<string, string>, headers: Record<string, string>, sql: pg.Client, orgId: string) {
  const service = await startServiceProcess({ ...env, SERVICE_ROLE: 'all' }, 3714)
  await until(async () => Number((await sql.query(`SELECT count(*) AS n FROM events WHERE seq IS NULL`)).rows[0].n) === 0, 60_000, 'the journal to be numbered')
  const viaApi = (after: number) =>
    fetch(`${service.url}/api/v1/events?after=${after}&limit=1000`, { headers })
      .then((r) => r.json() as Promise<{ data: unknown[]; next_after: number; has_more: boolean }>)
      .then((p) => ({ count: p.data.length, nextAfter: p.next_after, hasMore: p.has_more }))
  const direct = (after: number) =>
    sql
      .query({ name: 'feed-bench', text: 'SELECT seq, body FROM events WHERE org_id = $1 AND seq > $2 ORDER BY seq LIMIT 1001', values: [orgId, after] })
      .then((r) => ({ count: Math.min(r.rows.length, 1000), nextAfter: Number(r.rows[Math.min(r.rows.length, 1000) - 1]?.seq ?? after), hasMore: r.rows.length > 1000 }))
  await readWholeFeed(viaApi) // warm-up
  const rounds: Array<{ api: number; raw: number; four: number }> = []
  for (let round = 0; round < 3; round++) {
    const raw = await readWholeFeed(direct)
    const api = await readWholeFeed(viaApi)
    const t0 = performance.now()
    const parallel = await Promise.all([0, 1, 2, 3].map(() => readWholeFeed(viaApi)))
    const four = parallel.reduce((sum, r) => sum + r.events, 0) / ((performance.now() - t0) / 1000)
    rounds.push({ api: api.events / api.seconds, raw: raw.events / raw.seconds, four })
    if (round === 0) console.log(`\n4. Change feed reads: ${fmt(api.events)} events, GET /api/v1/events?limit=1000 page by page (session cookie)`)
  }
  for (const r of rounds) console.log(`   one reader: ${fmt(r.api)} events/s   four readers: ${fmt(r.four)} events/s   same statement direct (node-postgres, one reader): ${fmt(r.raw)} events/s   ratio ${fmt(r.api / r.raw, 2)}`)
  await service.stop()
}

await main()
