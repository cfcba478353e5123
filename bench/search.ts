/**
 * Benchmark of record search (GET /api/v1/search, docs/api.md, Search) at 1,000,000 records in one
 * organization on PostgreSQL, in a database of its own (`cairn_bench_search`): 400,000 contacts,
 * 200,000 accounts, 200,000 leads, 100,000 opportunities and 100,000 cases, plus a second
 * organization of 50,000 contacts with the same names. Names come from small lists, so common
 * queries match thousands of records, and every email ends in `.example`.
 *
 * For each query of a mix (common and rare names, 1-2 character prefixes, a domain, an email, a
 * case number, a substring in 100,000 values, no match), one client sends it RUNS times and the
 * median and 99th percentile are reported for two paths in the same run:
 *   api: GET /api/v1/search over HTTP to a service process (session cookie), round trip included;
 *   sql: the baseline, the statement the service runs (search-sql.ts), sent directly with `pg`.
 * Then the plan of one search and of a list's `q` filter, to show the indexes at work.
 *
 *   npm run bench:search            (BENCH_RESEED=1 to seed anew; BENCH_RUNS=200 by default)
 */
import pg from 'pg'
import { openPostgres } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../src/orgs/org.service.ts'
import { createSession, SESSION_COOKIE } from '../src/orgs/session.service.ts'
import { searchPlans, SEARCH_KINDS } from '../src/records/search/search-fields.ts'
import { searchSql } from '../src/records/search/search-sql.ts'
import { listConditions } from '../src/records/list-sql.ts'
import { bind } from '../src/records/record.repository.ts'
import { kindsByName } from '../src/records/kinds/index.ts'
import { ALL_SCOPES } from '../src/shared/auth-context.ts'
import { ensureDatabase, fmt, startServiceProcess, timeRuns } from './lib.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 200)
const LIMIT = 20

const FIRST = ['Ada', 'Grace', 'Alan', 'Barbara', 'Claude', 'Donald', 'Edsger', 'Frances', 'Guido', 'Hedy', 'Ivan', 'John', 'Katherine', 'Linus', 'Margaret', 'Niklaus', 'Ole', 'Radia', 'Sophie', 'Tim']
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Liskov', 'Shannon', 'Knuth', 'Dijkstra', 'Allen', 'Rossum', 'Lamarr', 'Sutherland', 'Backus', 'Johnson', 'Torvalds', 'Hamilton', 'Wirth', 'Dahl', 'Perlman', 'Wilson', 'Berners-Lee']
const WORDS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Wonka', 'Tyrell', 'Cyberdyne', 'Soylent', 'Hooli', 'Vandelay', 'Massive', 'Pied Piper', 'Gringotts', 'Oscorp', 'Aperture', 'Monarch', 'Nakatomi', 'Dunder']

const sqlArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(',')}]`
/** A UUIDv7 whose timestamp is `ts` (the seed's created_at), random elsewhere. */
const UUID_V7 = `(substr(h,1,8)||'-'||substr(h,9,4)||'-7'||substr(r,1,3)||'-8'||substr(r,4,3)||'-'||substr(r,7,12))::uuid`
const ROWS = (n: number) =>
  `FROM (SELECT g, ts, lpad(to_hex((extract(epoch FROM ts) * 1000)::bigint), 12, '0') AS h, md5(g::text || random()::text) AS r
     FROM (SELECT g, timestamptz '2026-01-01' - g * interval '10 milliseconds' AS ts FROM generate_series(1, ${n}) g) s) t`
const first = `(${sqlArray(FIRST)})[1 + g % ${FIRST.length}]`
const last = `(${sqlArray(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}]`
const word = `(${sqlArray(WORDS)})[1 + g % ${WORDS.length}]`

const SEED: Record<string, (n: number) => string> = {
  contacts: (n) => `INSERT INTO contacts (org_id, id, created_at, updated_at, first_name, last_name, email)
    SELECT $1, ${UUID_V7}, ts, ts, ${first}, ${last}, lower(${first} || '.' || replace(${last}, '-', '') || g || '@' || ${word} || (g % 5000) || '.example') ${ROWS(n)}`,
  accounts: (n) => `INSERT INTO accounts (org_id, id, created_at, updated_at, name, domain)
    SELECT $1, ${UUID_V7}, ts, ts, ${word} || ' ' || (ARRAY['Holdings','Labs','Industries','Group','Systems'])[1 + g % 5] || ' ' || g, lower(replace(${word}, ' ', '')) || g || '.example' ${ROWS(n)}`,
  leads: (n) => `INSERT INTO leads (org_id, id, created_at, updated_at, first_name, last_name, company, email)
    SELECT $1, ${UUID_V7}, ts, ts, ${first}, ${last}, ${word} || ' ' || g, lower(${first} || g || '@lead' || (g % 3000) || '.example') ${ROWS(n)}`,
  opportunities: (n) => `INSERT INTO opportunities (org_id, id, created_at, updated_at, name)
    SELECT $1, ${UUID_V7}, ts, ts, ${word} || ' renewal ' || g ${ROWS(n)}`,
  cases: (n) => `INSERT INTO cases (org_id, id, created_at, updated_at, case_number, subject)
    SELECT $1, ${UUID_V7}, ts, ts, g, (ARRAY['Printer jam','Login fails','Invoice wrong','Slow dashboard','Export broken'])[1 + g % 5] || ' at ' || ${word} ${ROWS(n)}`,
}
const BIG: Record<string, number> = { contacts: 400_000, accounts: 200_000, leads: 200_000, opportunities: 100_000, cases: 100_000 }

/** Seeds when the database does not hold the big organization yet; answers it and its administrator. */
async function seed(url: string): Promise<{ orgId: string; userId: string }> {
  const database = await openPostgres(url)
  await migrateToLatest(database)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  let big = (await client.query(`SELECT o.id, m.user_id FROM organizations o JOIN memberships m ON m.org_id = o.id WHERE o.name = 'Search 0'`)).rows[0]
  const counts = async (orgId: string) => {
    const out: Record<string, number> = {}
    for (const table of Object.keys(BIG)) out[table] = Number((await client.query(`SELECT count(*) AS n FROM ${table} WHERE org_id = $1`, [orgId])).rows[0].n)
    return out
  }
  const searchIndexes = Number((await client.query(`SELECT count(*) AS n FROM pg_indexes WHERE indexname LIKE '%\\_prefix\\_idx' OR indexname LIKE '%\\_trgm\\_idx'`)).rows[0].n)
  // Seeded only when every table holds its share and the indexes are back (an interrupted seed is redone).
  const complete = big && JSON.stringify(await counts(big.id)) === JSON.stringify(BIG) && searchIndexes === SEARCH_INDEXES
  if (!complete) {
    if (searchIndexes !== SEARCH_INDEXES) throw new Error(`${searchIndexes} of ${SEARCH_INDEXES} search indexes: an earlier seed was interrupted; run again with BENCH_RESEED=1`)
    console.log('Seeding 1,000,000 records in one organization and 50,000 in another...')
    const t0 = performance.now()
    await client.query('TRUNCATE organizations, users, accounts, contacts, leads, opportunities, cases CASCADE')
    // Building the search indexes after the rows is far faster than growing them row by row.
    const indexes = (await client.query(`SELECT indexname, indexdef FROM pg_indexes WHERE indexname LIKE '%\\_prefix\\_idx' OR indexname LIKE '%\\_trgm\\_idx'`)).rows as { indexname: string; indexdef: string }[]
    for (const i of indexes) await client.query(`DROP INDEX ${i.indexname}`)
    const a = await createOrganizationWithAdmin(database.db, { name: 'Search 0', adminEmail: 'search0@bench.test', adminPassword: 'bench-password' })
    const b = await createOrganizationWithAdmin(database.db, { name: 'Search 1', adminEmail: 'search1@bench.test', adminPassword: 'bench-password' })
    for (const [table, n] of Object.entries(BIG)) await client.query(SEED[table](n), [a.orgId])
    await client.query(SEED.contacts(50_000), [b.orgId])
    const t1 = performance.now()
    for (const i of indexes) await client.query(i.indexdef)
    await client.query('VACUUM ANALYZE')
    console.log(`Seeded in ${fmt((t1 - t0) / 1000, 1)} s, ${indexes.length} search indexes built in ${fmt((performance.now() - t1) / 1000, 1)} s`)
    big = { id: a.orgId, user_id: a.userId }
  }
  // Rows written since the GINs were built (the insert measurement below rolls back 300,000) wait in
  // their pending lists, which every substring search reads sequentially until autovacuum merges
  // them (migration 0020); this PostgreSQL runs without autovacuum, so merge them here.
  for (const { indexname } of (await client.query(`SELECT indexname FROM pg_indexes WHERE indexname LIKE '%\\_trgm\\_idx'`)).rows) {
    await client.query(`SELECT gin_clean_pending_list($1::regclass)`, [indexname])
  }
  await client.end()
  await database.close()
  return { orgId: big.id, userId: big.user_id }
}

/** Migrations 0015 and 0022: 14 prefix btrees, 2 e-mail domain btrees, 10 trigram GINs. */
const SEARCH_INDEXES = 26

const QUERIES: [string, string][] = [
  ['a name shared by 20,000 contacts and leads', 'Lovelace'],
  ['a first name, prefix of 40,000', 'grac'],
  ['one character (prefix only)', 'h'],
  ['two characters (prefix only)', 'jo'],
  ['a company word in 60,000 names', 'initech'],
  ['an account domain', 'globex21.example'],
  ['an email', 'ada.lovelace400@'],
  ['a case number', '#98765'],
  ['a substring in 100,000 values', 'renewal'],
  ['a domain starting 20,000 emails', 'hooli'],
  ['no match', 'zzqx'],
]

function percentiles(ms: number[]): { p50: number; p99: number } {
  const sorted = [...ms].sort((x, y) => x - y)
  return { p50: sorted[Math.floor(sorted.length / 2)], p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] }
}

const timed = (fn: () => Promise<unknown>) => timeRuns(fn, RUNS, 5)

async function main() {
  const url = await ensureDatabase('cairn_bench_search', process.env.BENCH_RESEED === '1')
  const { orgId, userId } = await seed(url)
  const database = await openPostgres(url)
  const session = await createSession(database.db, userId, orgId, 3600)
  await database.close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const service = await startServiceProcess({ DATABASE_URL: url }, 3705)
  const headers = { cookie: `${SESSION_COOKIE}=${session}` }
  const plans = searchPlans({ scopes: new Set(ALL_SCOPES) }, SEARCH_KINDS)

  console.log(`\nOne client, ${RUNS} runs per query, limit ${LIMIT} (ms):`)
  console.log(`  ${'query'.padEnd(46)} ${'hits'.padStart(4)}   api p50    p99   sql p50    p99`)
  const all = { api: [] as number[], sql: [] as number[] }
  for (const [name, q] of QUERIES) {
    const statement = searchSql(plans, { orgId, q, caseNumber: /^#?\d{1,9}$/.test(q) ? Number(q.replace('#', '')) : null, limit: LIMIT })!
    // Prepared under a name, as the service's pool prepares it (db/prepared-pool.ts).
    const prepared = { name: `search_${QUERIES.findIndex(([, x]) => x === q)}`, text: statement.text, values: statement.values }
    let hits = 0
    const api = await timed(async () => {
      const res = await fetch(`${service.url}/api/v1/search?q=${encodeURIComponent(q)}&limit=${LIMIT}`, { headers })
      if (!res.ok) throw new Error(`search ${q}: ${res.status} ${await res.text()}`)
      hits = ((await res.json()) as { data: unknown[] }).data.length
    })
    const direct = await timed(() => client.query(prepared))
    all.api.push(...api)
    all.sql.push(...direct)
    const a = percentiles(api)
    const s = percentiles(direct)
    console.log(`  ${`${name} (${q})`.padEnd(46)} ${String(hits).padStart(4)}   ${fmt(a.p50, 1).padStart(6)} ${fmt(a.p99, 1).padStart(6)}   ${fmt(s.p50, 1).padStart(6)} ${fmt(s.p99, 1).padStart(6)}`)
  }
  const a = percentiles(all.api)
  const s = percentiles(all.sql)
  console.log(`  ${'all queries'.padEnd(46)} ${''.padStart(4)}   ${fmt(a.p50, 1).padStart(6)} ${fmt(a.p99, 1).padStart(6)}   ${fmt(s.p50, 1).padStart(6)} ${fmt(s.p99, 1).padStart(6)}`)

  const explain = async (title: string, text: string, values: unknown[]) => {
    const plan = (await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${text}`, values)).rows.map((r: Record<string, string>) => r['QUERY PLAN'])
    console.log(`\nPlan, ${title}:\n  ${plan.filter((l) => /Scan|Planning|Execution|Limit/.test(l)).slice(0, 12).join('\n  ')}`)
  }
  const whole = searchSql(plans, { orgId, q: 'initech', caseNumber: null, limit: LIMIT })!
  const times = (await client.query(`EXPLAIN (ANALYZE, SUMMARY ON) ${whole.text}`, whole.values)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).filter((l: string) => /Planning|Execution/.test(l))
  console.log(`\nThe whole statement for "initech" (every kind, ${whole.text.split('UNION ALL').length} branches), unprepared: ${times.join(', ')}`)
  const one = searchSql(plans.filter((p) => p.kind.name === 'contact'), { orgId, q: 'Lovelace', caseNumber: null, limit: LIMIT })!
  await explain('search of contacts for "Lovelace"', one.text, one.values)
  // The list's own conditions (list-sql.ts), so the plan is the one the service runs.
  for (const q of ['lovelace120', 'hooli7']) {
    const values: unknown[] = [orgId]
    const where = listConditions(kindsByName.contact, { filters: [], q }, bind(values))
    await explain(`GET /contacts?q=${q} (the list filter)`, `SELECT id FROM contacts r WHERE ${where.join(' AND ')} ORDER BY r.id DESC LIMIT 51`, values)
  }

  // What the indexes cost writers: 50,000 contacts inserted into the small organization, with the
  // six search indexes of contacts (migrations 0015 and 0022: two trigram GINs, four btrees) and
  // without them (dropped inside the transaction), rolled back.
  const insertMs = async (withoutIndexes: boolean) => {
    await client.query('BEGIN')
    if (withoutIndexes) {
      await client.query('DROP INDEX contacts_first_name_prefix_idx, contacts_first_name_trgm_idx, contacts_last_name_prefix_idx, contacts_last_name_trgm_idx')
      await client.query('DROP INDEX contacts_email_prefix_idx, contacts_email_domain_prefix_idx')
    }
    const other = (await client.query(`SELECT id FROM organizations WHERE name = 'Search 1'`)).rows[0].id
    const t0 = performance.now()
    await client.query(SEED.contacts(50_000), [other])
    const ms = performance.now() - t0
    await client.query('ROLLBACK')
    return ms
  }
  const timesWith: number[] = []
  const timesWithout: number[] = []
  for (let i = 0; i < 3; i++) {
    timesWith.push(await insertMs(false))
    timesWithout.push(await insertMs(true))
  }
  const best = (xs: number[]) => Math.min(...xs)
  console.log(`\nInserting 50,000 contacts in one statement (best of 3): ${fmt(best(timesWithout))} ms without the search indexes, ${fmt(best(timesWith))} ms with them (${fmt(best(timesWith) / best(timesWithout), 2)}x)`)
  await client.end()
  await service.stop()
}

await main()
