/**
 * Shared pieces of the benchmarks: a bench PostgreSQL database, starting the service as a child
 * process in a session of its own (so its RSS is its own, and the kernel schedules it apart from
 * the load, as a deployed service), sampling RSS and CPU, wrk, autocannon and pgbench runs, and the
 * command line and load average every benchmark prints first.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import pg from 'pg'
import autocannon from 'autocannon'
import { openPostgres } from '../src/db/connect.ts'
import { createOrgClient } from '../src/oauth/index.ts'
import { consent, signIn } from '../test/helpers/live-service.ts'

export const ROOT = path.resolve(import.meta.dirname, '..')
export const ADMIN_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'

export function databaseUrl(name: string): string {
  const u = new URL(ADMIN_URL)
  u.pathname = `/${name}`
  return u.href
}

export async function ensureDatabase(name: string, fresh: boolean): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL })
  await admin.connect()
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1
  if (exists && fresh) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`)
  if (!exists || fresh) await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  return databaseUrl(name)
}

export interface ServiceProcess {
  child: ChildProcess
  url: string
  readyMs: number
  stop(): Promise<void>
}

/**
 * The V8 flags of `npm start` (package.json). A bounded heap makes V8 collect before growing:
 * peak RSS under the list benchmark falls from ~250-270 MB to ~150 MB, at a small throughput cost.
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=8', '--max-old-space-size=256']

/**
 * Processes the benchmarks start in sessions of their own (services, workers, the bare page
 * server), which a Ctrl-C to the benchmark's process group does not reach: ended with it.
 */
const ownSessions = new Set<ChildProcess>()
let cleanupInstalled = false

/**
 * Spawns `command` in a session of its own (setsid, `detached`), as a deployed service runs apart
 * from its clients. This machine's kernel shares CPU time between sessions first
 * (kernel.sched_autogroup_enabled = 1): a service in the benchmark's own session, with wrk beside
 * it, answered 1.4-1.8x the requests/s it answered from a session of its own under the same load,
 * so the bench printed API/pgbench ratios that no outside check reproduced (docs/benchmarks.md,
 * "The bench and an outside wrk check"). pgbench's clients meet PostgreSQL's backends across
 * sessions too (the backends are the postmaster's), so both sides of the ratio now do.
 */
export function spawnInOwnSession(command: string, args: string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true })
  ownSessions.add(child)
  child.once('exit', () => ownSessions.delete(child))
  if (!cleanupInstalled) {
    cleanupInstalled = true
    process.once('exit', () => ownSessions.forEach((c) => c.kill('SIGTERM')))
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      process.once(signal, () => {
        ownSessions.forEach((c) => c.kill('SIGTERM'))
        process.exit(code)
      })
    }
  }
  return child
}

/** `root`: the checkout whose service to start (another worktree, to compare before and after). */
export async function startServiceProcess(env: Record<string, string>, port: number, root = ROOT): Promise<ServiceProcess> {
  // A service left running by an interrupted run would answer the health check below and be measured instead.
  const taken = await fetch(`http://127.0.0.1:${port}/healthz`).then(() => true, () => false)
  if (taken) throw new Error(`port ${port} is already taken (a service left over from an interrupted run?)`)
  const started = performance.now()
  // BENCH_NODE_FLAGS adds flags for one run, e.g. --cpu-prof --cpu-prof-dir=/tmp/prof to profile the service.
  const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean)
  const child = spawnInOwnSession(path.join(ROOT, 'node_modules/.bin/node'), [...SERVICE_NODE_FLAGS, ...extra, path.join(root, 'src/server.ts')], {
    env: { ...process.env, ...serviceEnv(port), ...env },
    stdio: ['ignore', process.env.BENCH_SERVICE_STDOUT ? 'inherit' : 'pipe', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (child.exitCode !== null) throw new Error('service exited during start')
    try {
      const res = await fetch(`${url}/healthz`)
      if (res.ok) break
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 20))
  }
  const readyMs = performance.now() - started
  return {
    child,
    url,
    readyMs,
    async stop() {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
    },
  }
}

/**
 * The environment a benchmark's service starts with, before the benchmark's own (printed for
 * outside checks). Rate limits on, as deployed, but too high to refuse: a load run measures
 * throughput, not 429s. LOG_LEVEL=warn: no request log lines (at the default `info`, two a request
 * cost the service's thread about 25 µs; docs/benchmarks.md).
 */
export function serviceEnv(port: number): Record<string, string> {
  return { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_ORG: '2000000000', RATE_LIMIT_PER_CLIENT: '2000000000' }
}

/** Samples a process's resident set size (MB) until stopped; returns the peak. */
export function sampleRss(pid: number): { stop(): number } {
  let peak = 0
  const read = () => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
      peak = Math.max(peak, kb / 1024)
    } catch {
      /* exited */
    }
  }
  read()
  const timer = setInterval(read, 200)
  return {
    stop() {
      clearInterval(timer)
      read()
      return peak
    },
  }
}

/** The kernel's clock ticks per second, asked once, by the first benchmark that reads CPU time. */
let clockTicksAsked: number | undefined
const clockTicks = () => (clockTicksAsked ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100)

/**
 * CPU seconds (user + system) a process has used so far, from /proc: divided by the requests of a
 * round, the service's cost per request, which a noisy machine moves far less than requests/s.
 */
export function cpuSeconds(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, counted after the parenthesised command name.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / clockTicks()
}

/**
 * CPU seconds of every process named `command` (e.g. the local PostgreSQL's postmaster and
 * backends), including those of its children that have exited (fields 16 and 17, which the
 * postmaster collects from backends that ended).
 */
export function cpuSecondsOfCommand(command: string): number {
  let ticks = 0
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat: string
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue // ended meanwhile
    }
    const close = stat.lastIndexOf(') ')
    if (stat.slice(stat.indexOf('(') + 1, close) !== command) continue
    const fields = stat.slice(close + 2).split(' ')
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
  }
  return ticks / clockTicks()
}

/** The CPU ticks (user + system) of each live PostgreSQL backend connected to `database`, by pid. */
function backendTicks(database: string): Map<number, number> {
  const ticks = new Map<number, number>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The command name first (cheap), then the command line, which a backend sets to name its database.
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(') ')) !== 'postgres') continue
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      if (!cmdline.startsWith('postgres: ') || !cmdline.includes(` ${database} `)) continue
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]))
    } catch {
      continue // ended meanwhile
    }
  }
  return ticks
}

/**
 * CPU seconds the PostgreSQL backends connected to `database` use from now until `stop()`: the
 * database's share of a round, without the other sessions' backends on this shared machine nor the
 * server's own processes (WAL writer, checkpointer).
 *
 * Each backend is followed by pid, sampled every 500 ms. The service's pool closes a connection
 * left idle for 10 s (pg.Pool's idleTimeoutMillis), so backends end in the middle of a round: a
 * difference of two sums over the live backends dropped all an ended backend had used, and printed
 * negative CPU per record (bench:batch, a 1-in-flight round after a 4-in-flight one). Here an
 * ended backend keeps what it had used at its last sample; one that ends idle, as the pool's do,
 * loses nothing. A backend born in the round counts from zero (its connection start included).
 */
export function backendCpu(database: string): { stop(): number } {
  const first = backendTicks(database)
  const last = new Map(first)
  const sample = () => {
    for (const [pid, ticks] of backendTicks(database)) {
      // A pid used again by a new backend: what the ended one used stays, the new one counts from zero.
      if (ticks < (last.get(pid) ?? 0)) {
        first.set(pid, (first.get(pid) ?? 0) - last.get(pid)!)
      }
      if (!first.has(pid)) first.set(pid, 0)
      last.set(pid, ticks)
    }
  }
  // unref: a round that throws must not keep the benchmark alive through this timer.
  const timer = setInterval(sample, 500).unref()
  return {
    stop() {
      clearInterval(timer)
      sample()
      let ticks = 0
      for (const [pid, at] of last) ticks += at - first.get(pid)!
      return ticks / clockTicks()
    },
  }
}

export interface LoadResult {
  rps: number
  /** Requests completed in the round. */
  requests: number
  p50: number
  p99: number
  non2xx: number
}

/** True when wrk (a C HTTP load generator, Debian package `wrk`) is on the PATH; asked by the benchmarks that use it, not at import. */
export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined
}

/**
 * GET load from wrk, 32 connections over 2 threads: an HTTP client as light as pgbench is for
 * PostgreSQL (about 20 µs of CPU a request here, against 65-85 for autocannon, which runs in this
 * benchmark's own Node process on the same two cores). `cpuPerRequest` is its CPU per request.
 */
export function loadWrk(url: string, headers: Record<string, string>, seconds: number, connections = 32): LoadResult & { cpuPerRequest: number } {
  const args = wrkArgs(url, headers, seconds, connections)
  const before = childCpu()
  const res = spawnSync('wrk', args, { encoding: 'utf8' })
  if (res.status !== 0) throw new Error(`wrk failed: ${res.stderr}`)
  const out = res.stdout
  const requests = Number(/(\d+) requests in/.exec(out)?.[1])
  const ms = (label: string) => {
    const m = new RegExp(`\\s${label}%\\s+([\\d.]+)(us|ms|s)`).exec(out)
    if (!m) return NaN
    return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1)
  }
  const failed = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)?.slice(1).reduce((a, b) => a + Number(b), 0) ?? 0)
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]), requests, p50: ms('50'), p99: ms('99'), non2xx: failed, cpuPerRequest: ((childCpu() - before) / requests) * 1e6 }
}

/** wrk's arguments (also printed, for an outside check). */
export function wrkArgs(url: string, headers: Record<string, string>, seconds: number, connections = 32): string[] {
  return ['-t2', `-c${connections}`, `-d${seconds}s`, '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url]
}

/** CPU seconds of this process's finished children (wrk and pgbench run as such). */
export function childCpu(): number {
  // /proc/self/stat fields 16 and 17: cutime and cstime, in clock ticks, of waited-for children.
  const stat = fs.readFileSync('/proc/self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
  return (Number(fields[13]) + Number(fields[14])) / clockTicks()
}

/**
 * `request` sends another method and a body (e.g. JSON-RPC POSTs to /mcp); GET by default.
 * `overallRate` fixes the request rate (an open-loop run, as far as the connections allow).
 * autocannon runs inside this benchmark's process: its CPU (65-120 µs a request) and pauses are
 * this process's. loadAutocannon runs it as a process of its own.
 */
export async function load(url: string, headers: Record<string, string>, seconds: number, connections = 32, request: { method?: 'GET' | 'POST'; body?: string; overallRate?: number } = {}): Promise<LoadResult> {
  const r = await autocannon({ url, connections, duration: seconds, headers, pipelining: 1, ...request })
  return { rps: r.requests.average, requests: r.requests.total, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors }
}

/**
 * GET load from autocannon's command line, a process of its own (where wrk is not installed), with
 * its CPU per request, which includes the start of its Node process (a few hundred ms of CPU).
 */
export function loadAutocannon(url: string, headers: Record<string, string>, seconds: number, connections = 32): LoadResult & { cpuPerRequest: number } {
  const before = childCpu()
  const args = [path.join(ROOT, 'node_modules/autocannon/autocannon.js'), '-c', String(connections), '-d', String(seconds), '-p', '1', '-j', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url]
  const res = spawnSync(path.join(ROOT, 'node_modules/.bin/node'), args, { encoding: 'utf8' })
  if (res.status !== 0) throw new Error(`autocannon failed: ${res.stderr}`)
  const r = JSON.parse(res.stdout) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }
  return { rps: r.requests.average, requests: r.requests.total, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors, cpuPerRequest: ((childCpu() - before) / r.requests.total) * 1e6 }
}

/**
 * An evenly paced open loop at `rate` requests/s (bench/open-loop.ts says how it counts), from a
 * process of its own so that this process's heap and pauses are not measured as the server's.
 */
export async function openLoop(url: string, headers: Record<string, string>, rate: number, seconds: number, maxSockets = 64): Promise<LoadResult> {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), [path.join(ROOT, 'bench/open-loop.ts'), JSON.stringify({ url, headers, rate, seconds, maxSockets })], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  if (code !== 0) throw new Error(`the open-loop client exited with ${code}`)
  return JSON.parse(out) as LoadResult
}

/** Writes a pgbench script file for `script` (one statement). */
export function writePgbenchScript(file: string, script: string): void {
  // pgbench reads `:name` as a variable; to_char's HH24:MI:SS would become parameters. Quoting the
  // colons as to_char literal text gives the same output.
  fs.writeFileSync(file, script.replaceAll('HH24:MI:SS', 'HH24":"MI":"SS'))
}

/** pgbench's arguments for `file` against `url` (also printed, for an outside check). */
export function pgbenchArgs(url: string, file: string, seconds: number, clients = 32, protocol: 'simple' | 'prepared' = 'simple'): string[] {
  const u = new URL(url)
  return ['-n', '-M', protocol, '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', file, '-h', u.hostname, '-p', u.port || '5432', '-U', u.username || 'postgres', u.pathname.slice(1)]
}

export function pgbench(url: string, script: string, seconds: number, clients = 32, protocol: 'simple' | 'prepared' = 'simple'): { tps: number; latencyMs: number } {
  const file = path.join(os.tmpdir(), `cairn-pgbench-${process.pid}.sql`)
  writePgbenchScript(file, script)
  const res = spawnSync('pgbench', pgbenchArgs(url, file, seconds, clients, protocol), { encoding: 'utf8' })
  fs.rmSync(file, { force: true })
  if (res.status !== 0) throw new Error(`pgbench failed: ${res.stderr}`)
  const tps = Number(/tps = ([\d.]+)/.exec(res.stdout)?.[1])
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(res.stdout)?.[1])
  return { tps, latencyMs }
}

/**
 * Prints the command that repeats this run, with the settings in effect, the time and the load
 * average: every benchmark starts with it, so a figure copied into docs/benchmarks.md carries it.
 */
export function printCommand(script: string, settings: Record<string, string | number>): void {
  const env = Object.entries(settings).map(([k, v]) => `${k}=${v}`)
  console.log(`$ ${[...env, 'npm run', script].join(' ')}`)
  console.log(`  ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}, ${os.cpus().length} CPUs\n`)
}

/** The 1-minute load average (other sessions' work on this shared machine), printed beside a round. */
export function loadAverage(): number {
  return Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0])
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
}

/**
 * One bearer token through the flow a host runs: sign in, consent, exchange the code with PKCE.
 * Bound to `publicUrl` (the service's origin), so it serves REST and /mcp.
 */
export async function obtainToken(databaseUrl: string, publicUrl: string, orgId: string, admin: { email: string; password: string }, clientName: string): Promise<string> {
  const database = await openPostgres(databaseUrl)
  const redirect = 'https://bench.example.test/cb'
  const client = await createOrgClient(database.db, orgId, { name: clientName, redirectUris: [redirect], scopes: ['crm:read', 'crm:write', 'erp:read'] }, 'settings')
  await database.close()
  const verifier = crypto.randomBytes(32).toString('base64url')
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url')
  const params = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: redirect, scope: 'crm:read crm:write erp:read', code_challenge: challenge, code_challenge_method: 'S256', resource: publicUrl })
  const callback = await consent(`${publicUrl}/oauth/authorize?${params}`, await signIn(publicUrl, admin.email, admin.password))
  const res = await fetch(`${publicUrl}/api/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: redirect, code_verifier: verifier, client_id: client.client_id, client_secret: client.client_secret, resource: publicUrl }),
  })
  if (!res.ok) throw new Error(`token exchange failed: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { access_token: string }).access_token
}

/** Runs `fn` a few times to warm up, then `runs` times one after another: each run's milliseconds. */
export async function timeRuns(fn: () => Promise<unknown>, runs: number, warmup = 3): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn()
  const ms: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    ms.push(performance.now() - t0)
  }
  return ms
}

export function psql(url: string, command: string): void {
  const res = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', command], { encoding: 'utf8' })
  if (res.status !== 0) throw new Error(`psql failed: ${res.stderr}`)
}

export interface CopyRates {
  rows: number
  /** psql \copy of CSV into a copy with the same indexes. */
  csv: number
  /** The same, the copy also having the table's foreign keys (checked per row, like the batch's). */
  csvWithForeignKeys: number
  /** Server-side binary COPY from a file into a copy with the same indexes. */
  binary: number
}

/**
 * The rows `where` selects, as stored, COPY-ed into an empty scratch copy of the table (same
 * indexes): the baseline of the write benchmarks (bench/batch.ts, bench/csv-import.ts).
 */
export async function copyBaseline(client: pg.Client, url: string, table: string, where: string): Promise<CopyRates> {
  const csv = path.join(os.tmpdir(), `cairn-bench-copy-${table}.csv`)
  const bin = path.join(os.tmpdir(), `cairn-bench-copy-${table}.bin`)
  psql(url, `\\copy (SELECT * FROM ${table} WHERE ${where} ORDER BY id) TO '${csv}' (FORMAT csv)`)
  await client.query(`COPY (SELECT * FROM ${table} WHERE ${where} ORDER BY id) TO '${bin}' (FORMAT binary)`)
  const scratch = `copy_${table}`
  const timed = async (foreignKeys: boolean, load: () => Promise<unknown>) => {
    await client.query(`DROP TABLE IF EXISTS ${scratch}; CREATE TABLE ${scratch} (LIKE ${table} INCLUDING ALL)`)
    if (foreignKeys) {
      const fks = await client.query<{ def: string }>(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = '${table}'::regclass AND contype = 'f'`)
      for (const { def } of fks.rows) await client.query(`ALTER TABLE ${scratch} ADD ${def}`)
    }
    await client.query('CHECKPOINT')
    const t0 = performance.now()
    await load()
    const seconds = (performance.now() - t0) / 1000
    const rows = Number((await client.query(`SELECT count(*) AS n FROM ${scratch}`)).rows[0].n)
    return { rows, rate: rows / seconds }
  }
  const plain = await timed(false, async () => psql(url, `\\copy ${scratch} FROM '${csv}' (FORMAT csv)`))
  const withFks = await timed(true, async () => psql(url, `\\copy ${scratch} FROM '${csv}' (FORMAT csv)`))
  const binary = await timed(false, () => client.query(`COPY ${scratch} FROM '${bin}' (FORMAT binary)`))
  await client.query(`DROP TABLE ${scratch}`)
  fs.rmSync(csv, { force: true })
  fs.rmSync(bin, { force: true })
  return { rows: plain.rows, csv: plain.rate, csvWithForeignKeys: withFks.rate, binary: binary.rate }
}
