/**
 * Benchmark of CSV imports (issue 19): a 100,000-row contacts file, as a spreadsheet export has it
 * (column titles, not field names; the account named, not its id), POSTed to /api/v1/imports and
 * polled at /api/v1/imports/{id} until it ends. The service runs as a child process (flags of `npm
 * start`, SERVICE_ROLE=all: it runs the import itself). Measured: rows/s from the first byte sent to
 * `completed` (upload, the file's check and count, the job), the job alone (started_at to
 * finished_at), the service's peak RSS, and CPU per row of the service and of the PostgreSQL
 * backends. Then the same file again with dedupe_by=email: every row updates its record.
 *
 * The import of new records runs BENCH_ROUNDS times (3), each round followed at once by its
 * baseline: the contacts that round wrote (all columns, as stored) loaded by psql \copy into an
 * empty copy of the contacts table with its indexes and foreign keys (bench/lib.ts, copyBaseline),
 * so each ratio says what the import's path costs over PostgreSQL's own bulk load in the same
 * minute. The contacts are deleted (and vacuumed) between rounds. The dedupe import runs once, last.
 *
 *   npm run bench:csv-import                           PostgreSQL (BENCH_ROWS=100000, BENCH_ROUNDS=3)
 *   BENCH_DATABASE=embedded npm run bench:csv-import   the embedded database (no COPY baseline)
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openEmbedded, openPostgres, type Database } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../src/orgs/org.service.ts'
import { createSession, findSession, SESSION_COOKIE } from '../src/orgs/session.service.ts'
import { CITIES, FIRST, LAST, TITLES } from './sample-people.ts'
import { backendCpu, copyBaseline, cpuSeconds, ensureDatabase, fmt, loadAverage, median, printCommand, sampleRss, startServiceProcess } from './lib.ts'

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000)
const EMBEDDED = process.env.BENCH_DATABASE === 'embedded'
// One round on the embedded database: the service holds its folder, so the bench cannot clear the
// contacts between rounds, and there is no COPY baseline to pair with.
const ROUNDS = EMBEDDED ? 1 : Number(process.env.BENCH_ROUNDS ?? 3)
const ACCOUNTS = 1000
const PORT = 3731
const DB_NAME = 'cairn_bench_csv_import'
const TARGET = 15_000

const HEADER = ['First Name', 'Last Name', 'Email', 'Phone', 'Title', 'Department', 'Account', 'Mailing Street', 'Mailing City', 'Mailing State', 'Mailing Postal Code', 'Mailing Country', 'Lead Source', 'Description']

function quoted(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell
}

/** The file, written to disk (the upload streams it from there, as a browser would). */
function writeCsv(file: string): number {
  const out = fs.openSync(file, 'w')
  fs.writeSync(out, `${HEADER.join(',')}\r\n`)
  let lines: string[] = []
  for (let i = 0; i < ROWS; i++) {
    const first = FIRST[i % FIRST.length]
    const [city, state, zip] = CITIES[i % CITIES.length]
    lines.push(
      [
        first,
        LAST[(i >> 4) % LAST.length],
        `${first.toLowerCase()}.${i}@customer${i % 997}.example.com`,
        `+1 503 555 ${String(i % 10000).padStart(4, '0')}`,
        TITLES[i % TITLES.length],
        'Engineering',
        `Customer ${i % ACCOUNTS} Inc.`,
        `${100 + (i % 9000)} Main Street, Suite ${i % 400}`,
        city,
        state,
        zip,
        'US',
        'csv-bench',
        i % 3 === 0 ? 'Met at the conference; "very" interested in the enterprise plan.' : '',
      ]
        .map(quoted)
        .join(','),
    )
    if (lines.length === 5000) {
      fs.writeSync(out, `${lines.join('\r\n')}\r\n`)
      lines = []
    }
  }
  if (lines.length) fs.writeSync(out, `${lines.join('\r\n')}\r\n`)
  fs.closeSync(out)
  return fs.statSync(file).size
}

interface Result {
  seconds: number
  jobSeconds: number
  view: Record<string, any>
  peakRssMb: number
  serviceUs: number
  postgresUs: number
}

/** One poll; a connection the server closed as the request went out (keep-alive race) is retried. */
async function poll(url: string, headers: Record<string, string>): Promise<Record<string, any>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await (await fetch(url, { headers })).json()) as Record<string, any>
    } catch (err) {
      if (attempt === 3) throw err
    }
  }
}

async function importOnce(base: string, headers: Record<string, string>, file: string, pid: number, parts: Record<string, string>): Promise<Result> {
  const form = new FormData()
  for (const [k, v] of Object.entries(parts)) form.append(k, v)
  form.append('file', await fs.openAsBlob(file), 'contacts.csv')
  const rss = sampleRss(pid)
  const cpu = cpuSeconds(pid)
  const postgres = EMBEDDED ? null : backendCpu(DB_NAME)
  const t0 = performance.now()
  const res = await fetch(`${base}/api/v1/imports`, { method: 'POST', headers, body: form })
  if (res.status !== 202) throw new Error(`import answered ${res.status}: ${await res.text()}`)
  const { id } = (await res.json()) as { id: string }
  let view: Record<string, any>
  for (;;) {
    view = await poll(`${base}/api/v1/imports/${id}`, headers)
    if (!['queued', 'running'].includes(view.status)) break
    await new Promise((r) => setTimeout(r, 50))
  }
  const seconds = (performance.now() - t0) / 1000
  const perRow = (s: number) => (s * 1e6) / ROWS
  return {
    seconds,
    jobSeconds: (Date.parse(view.finished_at) - Date.parse(view.started_at)) / 1000,
    view,
    peakRssMb: rss.stop(),
    serviceUs: perRow(cpuSeconds(pid) - cpu),
    postgresUs: postgres ? perRow(postgres.stop()) : 0,
  }
}

function print(label: string, r: Result): void {
  const v = r.view
  console.log(`  ${label}`)
  console.log(`    ${v.status}: ${fmt(v.processed)} rows, ${fmt(v.created)} created, ${fmt(v.updated)} updated, ${fmt(v.failed)} failed`)
  console.log(`    ${fmt(ROWS / r.seconds).padStart(7)} rows/s end to end (${fmt(r.seconds, 2)} s: upload, check, job); job alone ${fmt(ROWS / r.jobSeconds)} rows/s (${fmt(r.jobSeconds, 2)} s)`)
  console.log(`    service peak RSS ${fmt(r.peakRssMb)} MB; CPU µs/row service ${fmt(r.serviceUs)}${EMBEDDED ? '' : ` / PostgreSQL ${fmt(r.postgresUs)}`}`)
}

async function main() {
  const dataDir = EMBEDDED ? fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-csv-')) : null
  const url = EMBEDDED ? null : await ensureDatabase(DB_NAME, true)
  const setup: Database = EMBEDDED ? await openEmbedded(dataDir!) : await openPostgres(url!)
  await migrateToLatest(setup)
  const { orgId, userId } = await createOrganizationWithAdmin(setup.db, { name: 'CSV bench', adminEmail: 'csv-bench@bench.test', adminPassword: 'bench-password' })
  const session = await createSession(setup.db, userId, orgId, 24 * 3600)
  const csrf = (await findSession(setup.db, session))!.csrfToken
  await setup.close()

  const file = path.join(os.tmpdir(), `cairn-bench-contacts-${ROWS}.csv`)
  const bytes = writeCsv(file)
  const env = { PUBLIC_URL: `http://127.0.0.1:${PORT}`, SERVICE_ROLE: 'all', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', IMPORT_MAX_FILE_BYTES: String(512 * 1024 * 1024), ...(EMBEDDED ? { DATA_DIR: dataDir! } : { DATABASE_URL: url! }) }
  const service = await startServiceProcess(env, PORT)
  const pid = service.child.pid!
  service.child.once('exit', (code, signal) => {
    if (code !== 0) console.error(`The service exited during the benchmark (code ${code}, signal ${signal}).`)
  })
  const client = url ? new pg.Client({ connectionString: url }) : null
  await client?.connect()
  try {
    const headers = { cookie: `${SESSION_COOKIE}=${session}`, 'x-csrf-token': csrf }
    const accounts = Array.from({ length: ACCOUNTS }, (_, i) => ({ name: `Customer ${i} Inc.`, industry: 'Technology' }))
    const made = await fetch(`${service.url}/api/v1/accounts/batch`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ operation: 'create', records: accounts }) })
    if (made.status !== 200) throw new Error(`accounts: ${made.status} ${await made.text()}`)
    // This machine's PostgreSQL runs with autovacuum off (bench/batch.ts says why this matters).
    await client?.query('ANALYZE accounts, memberships')

    printCommand('bench:csv-import', { BENCH_ROWS: ROWS, BENCH_ROUNDS: ROUNDS, ...(EMBEDDED ? { BENCH_DATABASE: 'embedded' } : {}) })
    console.log(`CSV import benchmark: ${fmt(ROWS)} contact rows (${fmt(bytes / 1024 / 1024, 1)} MiB, ${HEADER.length} columns mapped from the header, account by name among ${fmt(ACCOUNTS)}), ${EMBEDDED ? 'embedded database (PGlite)' : 'PostgreSQL'}`)
    // Warm up (JIT, plans) on a small file, not measured.
    const small = path.join(os.tmpdir(), 'cairn-bench-contacts-warmup.csv')
    fs.writeFileSync(small, fs.readFileSync(file, 'utf8').split('\r\n').slice(0, 3001).join('\r\n') + '\r\n')
    await importOnce(service.url, headers, small, pid, { kind: 'contacts', dedupe_by: 'email' })
    await client?.query(`DELETE FROM contacts WHERE org_id = $1`, [orgId])
    await client?.query('CHECKPOINT')

    // Rounds of pairs: the import of new records, then psql \copy of the rows it wrote (bench/lib.ts
    // copyBaseline), so each ratio compares two rounds seconds apart. The COPY used to run once,
    // after both imports: on this shared machine the load average moved from 8 to 4 in between.
    // Before each later round the contacts go (and VACUUM clears them: autovacuum is off here), so
    // every round writes the same 100,000 new records into the same table.
    const created: Result[] = []
    const ratios: number[] = []
    for (let round = 1; round <= ROUNDS; round++) {
      if (round > 1 && client) {
        await client.query(`DELETE FROM contacts WHERE org_id = $1`, [orgId])
        await client.query('VACUUM contacts')
        await client.query('CHECKPOINT')
      }
      const load = loadAverage()
      const r = await importOnce(service.url, headers, file, pid, { kind: 'contacts' })
      if (r.view.created !== ROWS) throw new Error(`round ${round} created ${r.view.created} of ${fmt(ROWS)} rows`)
      created.push(r)
      print(`round ${round}: new records (no dedupe_by), load average ${fmt(load, 1)} at its start`, r)
      if (client) {
        const copy = await copyBaseline(client, url!, 'contacts', `org_id = '${orgId}'`)
        const rate = ROWS / r.seconds
        ratios.push(rate / copy.csvWithForeignKeys)
        console.log(
          `    then its ${fmt(copy.rows)} contacts as stored by psql \\copy (CSV) into an empty copy of the table: with its indexes and foreign keys ${fmt(copy.csvWithForeignKeys)} rows/s ` +
            `(import / this ${fmt(rate / copy.csvWithForeignKeys, 2)}), with its indexes only ${fmt(copy.csv)} rows/s (import / this ${fmt(rate / copy.csv, 2)})`,
        )
      }
    }
    const updated = await importOnce(service.url, headers, file, pid, { kind: 'contacts', dedupe_by: 'email' })
    print('the same file with dedupe_by=email (every row updates its record)', updated)
    if (updated.view.updated !== ROWS) throw new Error('the dedupe import did not update every row')

    const rates = created.map((r) => ROWS / r.seconds)
    const rate = median(rates)
    console.log(`\n  new records, end to end: ${rates.map((r) => fmt(r)).join(' / ')} rows/s, median ${fmt(rate)}`)
    if (ratios.length) console.log(`  import / psql \\copy with indexes and foreign keys, per pair: ${ratios.map((r) => fmt(r, 2)).join(' / ')}, median ${fmt(median(ratios), 2)}`)
    console.log(`\nTarget (a ${fmt(ROWS)}-row CSV imports at >= ${fmt(TARGET)} rows/s, end to end; median of the rounds): ${rate >= TARGET ? 'met' : 'NOT met'} (${fmt(rate)} rows/s)`)
  } finally {
    await client?.end()
    await service.stop()
    fs.rmSync(file, { force: true })
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
