/**
 * Benchmark of the migration import (issue 7). A generated source org of about 1,000,000 records in
 * the objects a migration imports by default (accounts, contacts, cases, case comments, tasks and
 * events in the generator's proportions) is served by the simulator in its own process; the service
 * runs as a child process on PostgreSQL (flags of `npm start`), analyzes the org through the API and
 * imports it with the default configuration (deduplication of contacts by email included). Printed:
 * records per second end to end (run start to completion), per object (with CPU µs per record of the
 * service / simulator / PostgreSQL), and the service's RSS as the
 * import goes (10k, 100k, ... records). In the same run, the baseline: the same rows loaded with
 * COPY into copies of the same tables (same indexes; COPY checks no foreign keys), and the ratio.
 *
 *   npm run bench:migration                       (BENCH_RECORDS=1000000 by default)
 *   BENCH_RECORDS=100000 npm run bench:migration  (a shorter run)
 *   BENCH_BASELINES=off ...                        (the import only, for comparing variants)
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn, type ChildProcess } from 'node:child_process'
import pg from 'pg'
import { openPostgres } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../src/orgs/org.service.ts'
import { createSession, findSession, SESSION_COOKIE } from '../src/orgs/session.service.ts'
import type { SourceSim } from '../tools/source-sim/main.ts'
import { login } from '../test/source-sim/helpers.ts'
import { cpuSeconds, cpuSecondsOfCommand, ensureDatabase, fmt, ROOT, startServiceProcess } from './lib.ts'

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000)
// The imported objects per account of the generator (tools/source-sim/data/gen-plan.ts): 1 account,
// 3 contacts, 2 cases, 5.6 comments, 4 tasks, 1 event.
const ACCOUNTS = Math.round(RECORDS / 16.6)
const PORT = 3740
const TABLES = ['accounts', 'contacts', 'cases', 'case_comments', 'activities']

function startSimulator(): Promise<{ child: ChildProcess; url: string; sandboxLoginUrl: string }> {
  // BENCH_SIM_NODE_FLAGS adds flags to the simulator's node, e.g. --cpu-prof --cpu-prof-dir=/tmp/simprof.
  const flags = (process.env.BENCH_SIM_NODE_FLAGS ?? '').split(' ').filter(Boolean)
  const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), [...flags, path.join(ROOT, 'tools/source-sim/main.ts'), '--port', '0', '--dataset', 'generated', '--accounts', String(ACCOUNTS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /ready at (http:\/\/\S+)/.exec(out)
      const s = /sandbox login URL (http:\/\/\S+)/.exec(out)
      if (m && s) resolve({ child, url: m[1], sandboxLoginUrl: s[1] })
    })
    child.on('exit', (code) => reject(new Error(`simulator exited ${code}: ${out}`)))
  })
}

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}

async function main() {
  const url = await ensureDatabase('cairn_bench_migration', true)
  const setup = await openPostgres(url)
  await migrateToLatest(setup)
  const { orgId, userId } = await createOrganizationWithAdmin(setup.db, { name: 'Migration bench', adminEmail: 'bench@bench.test', adminPassword: 'bench-password' })
  const session = await createSession(setup.db, userId, orgId, 24 * 3600)
  const csrf = (await findSession(setup.db, session))!.csrfToken
  await setup.close()

  console.log(`Migration benchmark: generated source org, ${fmt(ACCOUNTS)} accounts (~${fmt(RECORDS)} records in the imported objects), PostgreSQL target`)
  const simStarted = performance.now()
  const sim = await startSimulator()
  console.log(`  simulator ready in ${fmt((performance.now() - simStarted) / 1000, 1)} s at ${sim.url}`)
  const service = await startServiceProcess(
    { DATABASE_URL: url, ALLOW_PRIVATE_OUTBOUND: 'true', SOURCE_CLIENT_ID: 'cairn-demo-client', SOURCE_CLIENT_SECRET: 'cairn-demo-secret', SOURCE_LOGIN_URL: sim.url, SOURCE_SANDBOX_LOGIN_URL: sim.sandboxLoginUrl },
    PORT,
  )
  const pid = service.child.pid!
  const headers = { cookie: `${SESSION_COOKIE}=${session}`, 'x-csrf-token': csrf, 'content-type': 'application/json' }
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${service.url}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const json = await res.json()
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`)
    return json
  }
  try {
    const conn = await login({ url: sim.url, sandboxLoginUrl: sim.sandboxLoginUrl } as SourceSim)
    const analyzeStarted = performance.now()
    let m = await api('POST', '/api/v1/migration/analyze', { src_instance_url: conn.instanceUrl, src_access_token: conn.accessToken, src_refresh_token: conn.refreshToken })
    while (m.status === 'analyzing') {
      await new Promise((r) => setTimeout(r, 250))
      m = await api('GET', `/api/v1/migration/${m.id}`)
    }
    if (m.status !== 'analyzed') throw new Error(`analysis ${m.status}: ${m.status_reason}`)
    console.log(`  analysis: ${fmt((performance.now() - analyzeStarted) / 1000, 1)} s (readiness ${m.summary.readiness}, ${fmt(m.summary.records)} source records in ${m.summary.objects} objects)`)

    const rssAtStart = rssMb(pid)
    const marks = [10_000, 100_000, 250_000, 500_000, 750_000, 1_000_000].filter((n) => n <= RECORDS)
    const seen: Array<{ processed: number; rss: number }> = []
    let peak = rssAtStart
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100)
    // CPU seconds per process over the run: the three share this machine's cores.
    const cpu = () => ({ service: cpuSeconds(pid), simulator: cpuSeconds(sim.child.pid!), postgres: cpuSecondsOfCommand('postgres') })
    const cpuBefore = cpu()
    // CPU at each object's end (as the 200 ms polls see it), for the per-object split.
    const cpuAtEnd = new Map<string, ReturnType<typeof cpu>>()
    m = await api('POST', '/api/v1/migration/run', { migration_id: m.id })
    console.log(`\n  import (default configuration: ${m.config.objects.join(', ')})`)
    while (!['completed', 'completed_with_errors', 'failed', 'cancelled'].includes(m.status)) {
      await new Promise((r) => setTimeout(r, 200))
      m = await api('GET', `/api/v1/migration/${m.id}`)
      const rss = rssMb(pid)
      for (const p of m.progress) if (p.finished_at && !cpuAtEnd.has(p.object)) cpuAtEnd.set(p.object, cpu())
      while (marks.length && m.totals.processed >= marks[0]) {
        seen.push({ processed: marks.shift()!, rss })
        console.log(`    ${fmt(seen.at(-1)!.processed).padStart(9)} records: RSS ${fmt(rss)} MB`)
      }
    }
    const cpuAfter = cpu()
    clearInterval(sampler)
    if (m.status === 'failed' || m.status === 'cancelled') throw new Error(`run ${m.status}: ${m.status_reason}`)
    const seconds = (Date.parse(m.finished_at) - Date.parse(m.started_at)) / 1000
    const imported = m.totals.processed
    const rate = imported / seconds
    let cpuBeforeObject = cpuBefore
    for (const p of m.progress) {
      const s = (Date.parse(p.finished_at) - Date.parse(p.started_at)) / 1000
      const end = cpuAtEnd.get(p.object) ?? cpuAfter
      const start = cpuBeforeObject
      const us = (k: keyof typeof end) => fmt(((end[k] - start[k]) * 1e6) / p.processed)
      cpuBeforeObject = end
      console.log(
        `    ${p.object.padEnd(12)} ${fmt(p.processed).padStart(9)} records in ${fmt(s, 1).padStart(6)} s = ${fmt(p.processed / s).padStart(7)} records/s ` +
          `(created ${fmt(p.created)}, linked ${fmt(p.linked)}, failed ${fmt(p.failed)}, skipped ${fmt(p.skipped)}; CPU µs/record ${us('service')} / ${us('simulator')} / ${us('postgres')})`,
      )
    }
    console.log(`  end to end: ${fmt(imported)} records in ${fmt(seconds, 1)} s = ${fmt(rate)} records/s   (${m.status}; ${fmt(m.totals.failed)} failed, ${fmt(m.totals.warnings)} warnings)`)
    console.log(`  service RSS: ${fmt(rssAtStart)} MB before the run, peak ${fmt(peak)} MB`)
    const used = Object.fromEntries(Object.entries(cpuAfter).map(([k, v]) => [k, v - cpuBefore[k as keyof typeof cpuBefore]]))
    const total = used.service + used.simulator + used.postgres
    const perRecord = (s: number) => `${fmt((s * 1e6) / imported)} µs`
    console.log(
      `  CPU per record: service ${perRecord(used.service)}, simulator ${perRecord(used.simulator)}, PostgreSQL ${perRecord(used.postgres)}; ` +
        `total ${perRecord(total)} (${fmt(total / seconds, 2)} of ${os.cpus().length} cores busy on average)`,
    )

    if (process.env.BENCH_BASELINES === 'off') return // experiments comparing import variants only
    // Baseline: the same rows, COPY-ed into copies of the same tables.
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    let copied = 0
    let copyMs = 0
    for (const t of TABLES) {
      const file = path.join(os.tmpdir(), `cairn-bench-copy-${t}.bin`)
      await client.query(`COPY (SELECT * FROM ${t} WHERE org_id = '${orgId}') TO '${file}' (FORMAT binary)`)
      await client.query(`DROP TABLE IF EXISTS copy_${t}; CREATE TABLE copy_${t} (LIKE ${t} INCLUDING ALL)`)
      await client.query('CHECKPOINT')
      const started = performance.now()
      const r = await client.query(`COPY copy_${t} FROM '${file}' (FORMAT binary)`)
      copyMs += performance.now() - started
      copied += r.rowCount ?? 0
      await client.query(`DROP TABLE copy_${t}`)
      fs.rmSync(file, { force: true })
    }
    // Second baseline, the database's share of the import alone: the same rows upserted by src_id in
    // one statement per table into copies that also have the tables' foreign keys (which COPY into
    // a bare copy does not check).
    let upsertMs = 0
    for (const t of TABLES) {
      await client.query(`DROP TABLE IF EXISTS upsert_${t}; CREATE TABLE upsert_${t} (LIKE ${t} INCLUDING ALL)`)
      const fks = await client.query<{ def: string }>(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = '${t}'::regclass AND contype = 'f'`)
      for (const { def } of fks.rows) await client.query(`ALTER TABLE upsert_${t} ADD ${def}`)
      await client.query('CHECKPOINT')
      const started = performance.now()
      await client.query(`INSERT INTO upsert_${t} SELECT * FROM ${t} WHERE org_id = '${orgId}' ORDER BY created_at
        ON CONFLICT (org_id, src_id) WHERE src_id IS NOT NULL DO UPDATE SET updated_at = EXCLUDED.updated_at`)
      upsertMs += performance.now() - started
      await client.query(`DROP TABLE upsert_${t}`)
    }
    await client.end()
    const copyRate = copied / (copyMs / 1000)
    const upsertRate = copied / (upsertMs / 1000)
    console.log(`  COPY of the same ${fmt(copied)} rows into copies of the same tables (same indexes): ${fmt(copyMs / 1000, 1)} s = ${fmt(copyRate)} rows/s`)
    console.log(`  import / COPY: ${fmt(rate / copyRate, 2)}`)
    console.log(`  SQL upsert of the same rows (INSERT ... SELECT ... ON CONFLICT, same indexes and foreign keys, one connection): ${fmt(upsertMs / 1000, 1)} s = ${fmt(upsertRate)} rows/s`)
    console.log(`\nTargets: >= 20,000 records/s (${rate >= 20_000 ? 'met' : 'NOT met'}); RSS < 300 MB (${peak < 300 ? 'met' : 'NOT met'}) and flat from 10k to 1M`)
  } finally {
    await service.stop()
    sim.child.kill('SIGTERM')
  }
}

await main()
