/**
 * Benchmark of the records' bulk write path (issue: batch writes). The service runs as a child
 * process (flags of `npm start`) on a fresh PostgreSQL database; a bearer token from the real OAuth
 * flow POSTs `/api/v1/{kind}/batch` with `{"operation":"create"}` and 1,000 records per body, with
 * 1, 2 and 4 requests in flight, for contacts (no references) and opportunities (account_id to one
 * of 1,000 accounts, owner_id). Printed per configuration: records/s, p50/p99 per batch request, and
 * the CPU time per record of the service and of the PostgreSQL backends serving the bench database
 * (/proc, each backend followed by pid: lib.ts backendCpu; other sessions' backends left out).
 * Then the event cost: contacts again with one webhook subscribed to contact.created (deliveries
 * queued in the same transaction; SERVICE_ROLE=web so no dispatcher in the process sends them),
 * bracketed by runs without.
 *
 * Baselines interleaved with the write rounds: each configuration's round is followed at once by
 * its baseline, the rows that round wrote (all columns, as stored) loaded into an empty scratch copy
 * of the table made with `CREATE TABLE ... (LIKE t INCLUDING ALL)` (same indexes, no foreign keys):
 * by `psql -c "\copy ... FROM file (FORMAT csv)"` (client-side COPY FROM STDIN over one connection,
 * psql start included), by psql \copy into a copy that also has the table's foreign keys, which the
 * batch's rows meet (per-row checks), and for reference by a server-side binary COPY from a file
 * (what bench/migration.ts uses). Each pair prints its ratios and the load average at its start.
 * The target's ratio is batch / psql \copy into the copy with the foreign keys: "the same table
 * with the same indexes" includes the table's constraints, which a COPY into the real table checks
 * too; the ratio without them is printed beside it.
 *
 *   npm run bench:batch          (BENCH_RECORDS=200000 per configuration; BENCH_CONCURRENCY=1,2,4)
 */
import pg from 'pg'
import { openPostgres } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../src/orgs/org.service.ts'
import { createSession, findSession, SESSION_COOKIE } from '../src/orgs/session.service.ts'
import { CITIES, DEPARTMENTS, FIRST, LAST, TITLES } from './sample-people.ts'
import { backendCpu, copyBaseline, cpuSeconds, ensureDatabase, fmt, loadAverage, obtainToken, printCommand, startServiceProcess, type CopyRates } from './lib.ts'

const RECORDS = Number(process.env.BENCH_RECORDS ?? 200_000)
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,2,4').split(',').map(Number)
const BATCH = 1000
const ACCOUNTS = 1000
const PORT = 3730
const DB_NAME = 'cairn_bench_batch'
const PUBLIC_URL = `http://127.0.0.1:${PORT}`
const ADMIN = { email: 'batch-bench@bench.test', password: 'bench-password' }

const STAGES = ['prospecting', 'qualification', 'needs_analysis', 'proposal', 'negotiation', 'closed_won', 'closed_lost']

/** A contact as an integrator sends it: every key present, some values null (one statement per batch). */
function contact(i: number, tag: string, ownerId: string): Record<string, unknown> {
  const first = FIRST[i % FIRST.length]
  const last = LAST[(i >> 4) % LAST.length]
  const [city, state, zip] = CITIES[i % CITIES.length]
  return {
    first_name: first,
    last_name: last,
    email: `${first.toLowerCase()}.${i}@customer${i % 997}.example.com`,
    phone: `+1 503 555 ${String(i % 10000).padStart(4, '0')}`,
    mobile_phone: i % 2 ? `+1 971 555 ${String((i * 7) % 10000).padStart(4, '0')}` : null,
    title: TITLES[i % TITLES.length],
    department: DEPARTMENTS[i % DEPARTMENTS.length],
    mailing_street: `${100 + (i % 9000)} Main Street, Suite ${i % 400}`,
    mailing_city: city,
    mailing_state: state,
    mailing_postal_code: zip,
    mailing_country: 'US',
    lead_source: tag,
    description: i % 3 === 0 ? `Met at the ${2020 + (i % 6)} conference; interested in the enterprise plan and an onboarding workshop.` : null,
    owner_id: ownerId,
  }
}

function opportunity(i: number, tag: string, ownerId: string, accounts: string[]): Record<string, unknown> {
  return {
    name: `Renewal ${i} - ${LAST[i % LAST.length]} Holdings`,
    account_id: accounts[i % accounts.length],
    stage: STAGES[i % STAGES.length],
    amount: ((i * 7919) % 250_000) + 0.5,
    currency: 'USD',
    probability: (i * 13) % 101,
    close_date: `2027-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
    type: i % 2 ? 'Renewal' : 'New Business',
    lead_source: tag,
    next_step: i % 4 ? 'Send the proposal' : null,
    owner_id: ownerId,
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

interface Run {
  name: string
  rate: number
  p50: number
  p99: number
  serviceUs: number
  postgresUs: number
}

/** Posts `bodies` with `inFlight` requests at a time; records/s from the first send to the last answer. */
async function post(pid: number, url: string, headers: Record<string, string>, bodies: string[], inFlight: number, name: string): Promise<Run> {
  const latencies: number[] = []
  let next = 0
  const cpuBefore = cpuSeconds(pid)
  const postgres = backendCpu(DB_NAME)
  const started = performance.now()
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]
        const t0 = performance.now()
        const res = await fetch(url, { method: 'POST', headers, body })
        const answer = await res.arrayBuffer()
        if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${Buffer.from(answer).toString('utf8').slice(0, 500)}`)
        latencies.push(performance.now() - t0)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const records = bodies.length * BATCH
  const perRecord = (s: number) => (s * 1e6) / records
  return {
    name,
    rate: records / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    serviceUs: perRecord(cpuSeconds(pid) - cpuBefore),
    postgresUs: perRecord(postgres.stop()),
  }
}

function print(r: Run): void {
  console.log(`  ${r.name.padEnd(44)} ${fmt(r.rate).padStart(7)} records/s   p50 ${fmt(r.p50).padStart(5)} ms   p99 ${fmt(r.p99).padStart(5)} ms   CPU µs/record service ${fmt(r.serviceUs)} / PostgreSQL ${fmt(r.postgresUs)}`)
}

async function main() {
  const url = await ensureDatabase(DB_NAME, true)
  const setup = await openPostgres(url)
  await migrateToLatest(setup)
  const { orgId, userId } = await createOrganizationWithAdmin(setup.db, { name: 'Batch bench', adminEmail: ADMIN.email, adminPassword: ADMIN.password })
  const session = await createSession(setup.db, userId, orgId, 24 * 3600)
  const csrf = (await findSession(setup.db, session))!.csrfToken
  await setup.close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()

  // SERVICE_ROLE=web: no dispatcher, so the deliveries of the webhook round stay queued and the
  // rounds measure the writes alone.
  const service = await startServiceProcess({ DATABASE_URL: url, PUBLIC_URL, SERVICE_ROLE: 'web', ALLOW_PRIVATE_OUTBOUND: 'true' }, PORT)
  const pid = service.child.pid!
  try {
    const token = await obtainToken(url, PUBLIC_URL, orgId, ADMIN, 'Batch bench integrator')
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const batchUrl = (kindPath: string) => `${service.url}/api/v1/${kindPath}/batch`
    const body = (records: unknown[]) => JSON.stringify({ operation: 'create', records })
    const bodies = (make: (i: number) => Record<string, unknown>) => Array.from({ length: Math.ceil(RECORDS / BATCH) }, (_, b) => body(Array.from({ length: BATCH }, (_, k) => make(b * BATCH + k))))

    const accountRes = await fetch(batchUrl('accounts'), { method: 'POST', headers, body: body(Array.from({ length: ACCOUNTS }, (_, i) => ({ name: `Customer ${i} Inc.`, industry: 'Technology' }))) })
    if (accountRes.status !== 200) throw new Error(`accounts: ${accountRes.status} ${await accountRes.text()}`)
    const accounts = ((await accountRes.json()) as { data: Array<{ id: string }> }).data.map((a) => a.id)
    // This machine's PostgreSQL runs with autovacuum off: without statistics, the foreign-key
    // checks of the opportunities (and of the COPY baseline with foreign keys) scan all the accounts
    // per row (45 µs against 5 µs). A database with autovacuum on would have analyzed them.
    await client.query('ANALYZE accounts, memberships')

    printCommand('bench:batch', { BENCH_RECORDS: RECORDS, BENCH_CONCURRENCY: CONCURRENCY.join(',') })
    console.log(`Batch write benchmark: POST /api/v1/{kind}/batch, create, ${fmt(BATCH)} records per body, ${fmt(RECORDS)} records per configuration, bearer token, PostgreSQL`)
    console.log(`  contact body: ${fmt(body([contact(1, 'x', userId)]).length - 35)} bytes per record; opportunity: ${fmt(body([opportunity(1, 'x', userId, accounts)]).length - 35)}`)
    // Warm up (JIT, connection pool, plans) with 20 batches of each kind, not measured.
    await post(pid, batchUrl('contacts'), headers, bodies((i) => contact(i, 'warmup', userId)).slice(0, 20), 2, 'warm-up')
    await post(pid, batchUrl('opportunities'), headers, bodies((i) => opportunity(i, 'warmup', userId, accounts)).slice(0, 20), 2, 'warm-up')

    const runs: Run[] = []
    const measure = async (kindPath: string, make: (i: number, tag: string) => Record<string, unknown>, inFlight: number, tag: string, label: string) => {
      const all = bodies((i) => make(i, tag))
      await client.query('CHECKPOINT')
      const r = await post(pid, batchUrl(kindPath), headers, all, inFlight, label)
      print(r)
      runs.push(r)
      return r
    }
    const makeContact = (i: number, tag: string) => contact(i, tag, userId)
    const makeOpportunity = (i: number, tag: string) => opportunity(i, tag, userId, accounts)

    // Each configuration is a pair of rounds: the batch writes, then psql \copy loads the rows that
    // round wrote (bench/lib.ts copyBaseline), so each ratio compares two rounds seconds apart.
    // The COPY used to run once, after every write round: on this shared machine the load average
    // moved from 8 to 4 in between, and the ratios compared two different machines.
    console.log(`\n  pairs of rounds: the batch writes, then psql \\copy loads the rows it wrote into an empty copy of the table (same indexes)`)
    const pairs = new Map<string, { run: Run; copy: CopyRates }[]>()
    for (const [table, make, what] of [
      ['contacts', makeContact, 'contacts'],
      ['opportunities', makeOpportunity, 'opportunities (account_id, owner_id)'],
    ] as const) {
      pairs.set(table, [])
      for (const c of CONCURRENCY) {
        const load = loadAverage()
        const run = await measure(table, make, c, `bench-c${c}`, `${what}, ${c} in flight`)
        const copy = await copyBaseline(client, url, table, `org_id = '${orgId}' AND lead_source = 'bench-c${c}'`)
        pairs.get(table)!.push({ run, copy })
        console.log(
          `    its ${fmt(copy.rows)} rows by \\copy: ${fmt(copy.csvWithForeignKeys)} rows/s with the foreign keys, ${fmt(copy.csv)} without, binary COPY ${fmt(copy.binary)}   ` +
            `batch / \\copy: ${fmt(run.rate / copy.csvWithForeignKeys, 2)} (with FKs), ${fmt(run.rate / copy.csv, 2)} (without), ${fmt(run.rate / copy.binary, 2)} (binary)   load average ${fmt(load, 1)}`,
        )
      }
    }

    // Event cost: the same contact writes with one webhook subscribed, bracketed by runs without.
    const hookConcurrency = CONCURRENCY.includes(2) ? 2 : CONCURRENCY[0]
    const cookieHeaders = { cookie: `${SESSION_COOKIE}=${session}`, 'x-csrf-token': csrf, 'content-type': 'application/json' }
    const created = await fetch(`${service.url}/api/v1/webhooks`, { method: 'POST', headers: cookieHeaders, body: JSON.stringify({ url: 'http://127.0.0.1:9/never-called', events: ['contact.created'], secret: 'bench signing secret!' }) })
    if (created.status !== 201) throw new Error(`webhook: ${created.status} ${await created.text()}`)
    const hook = (await created.json()) as { id: string }
    const setHook = async (status: 'active' | 'disabled') => {
      const res = await fetch(`${service.url}/api/v1/webhooks/${hook.id}`, { method: 'PATCH', headers: cookieHeaders, body: JSON.stringify({ status }) })
      if (!res.ok) throw new Error(`webhook ${status}: ${res.status}`)
    }
    console.log(`\n  event cost (contacts, ${hookConcurrency} in flight)`)
    await setHook('disabled')
    const without1 = await measure('contacts', makeContact, hookConcurrency, 'bench-nohook-1', 'no webhook subscribed')
    await setHook('active')
    const withHook = await measure('contacts', makeContact, hookConcurrency, 'bench-hook', 'one webhook on contact.created')
    await setHook('disabled')
    const without2 = await measure('contacts', makeContact, hookConcurrency, 'bench-nohook-2', 'no webhook subscribed (again)')
    const queued = Number((await client.query(`SELECT count(*) AS n FROM webhook_deliveries`)).rows[0].n)
    const withoutRate = (without1.rate + without2.rate) / 2
    console.log(`  with a webhook: ${fmt((withHook.rate / withoutRate - 1) * 100, 1)}% records/s, +${fmt(withHook.serviceUs - (without1.serviceUs + without2.serviceUs) / 2, 1)} µs service CPU and +${fmt(withHook.postgresUs - (without1.postgresUs + without2.postgresUs) / 2, 1)} µs PostgreSQL CPU per record; ${fmt(queued)} deliveries queued`)

    const written = Number((await client.query(`SELECT (SELECT count(*) FROM contacts WHERE org_id = $1 AND lead_source LIKE 'bench-%') + (SELECT count(*) FROM opportunities WHERE org_id = $1 AND lead_source LIKE 'bench-%') AS n`, [orgId])).rows[0].n)
    if (written !== runs.length * Math.ceil(RECORDS / BATCH) * BATCH) throw new Error(`expected ${runs.length * RECORDS} records written, found ${written}`)

    // The target: the best configuration's rate, and the best pair's ratio to \copy into the
    // table's copy with its foreign keys ("the same table with the same indexes", constraints included).
    const ok: boolean[] = []
    console.log(`\n  batch / \\copy with the foreign keys, per pair (${CONCURRENCY.join(' / ')} in flight):`)
    for (const [table, ps] of pairs) {
      const ratios = ps.map((p) => p.run.rate / p.copy.csvWithForeignKeys)
      const best = Math.max(...ps.map((p) => p.run.rate))
      ok.push(best >= 20_000 && Math.max(...ratios) >= 0.35)
      console.log(`    ${table}: ${ratios.map((r) => fmt(r, 2)).join(' / ')}   best ${fmt(Math.max(...ratios), 2)}; best rate ${fmt(best)} records/s`)
    }
    console.log(`\nTargets (best configuration >= 20,000 records/s and >= 0.35 of psql \\copy into the same table, constraints included), contacts / opportunities: ${ok.map((o) => (o ? 'met' : 'NOT met')).join(' / ')}`)
  } finally {
    await client.end()
    await service.stop()
  }
}

await main()
