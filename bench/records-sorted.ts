/**
 * Benchmark of sorted lists and counts (docs/api.md, Lists) on bench:records' 1,000,000
 * opportunities, in a database of its own (`cairn_bench_sorted`). Single-client latency of the
 * repository's statements (median and p95 of 30 runs, round trip included): the default page, sorted
 * first and deep pages (400,000 records in), range-filtered pages, and exact counts over the big
 * organization (500,000 records) with and without filters; then API throughput with autocannon.
 *
 *   npm run bench:sorted             (BENCH_SECONDS=10 by default; BENCH_RESEED=1 to seed anew)
 */
import pg from 'pg'
import { openPostgres } from '../src/db/connect.ts'
import { createSession, SESSION_COOKIE } from '../src/orgs/session.service.ts'
import { kindsByName } from '../src/records/kinds/index.ts'
import { listOptionsFrom } from '../src/records/record-query.ts'
import { countRecords, listRecordsPage } from '../src/records/record.repository.ts'
import { ensureDatabase, fmt, load, startServiceProcess, timeRuns } from './lib.ts'
import { seedOpportunities } from './seed-opportunities.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const RUNS = 30
const kind = kindsByName.opportunity

async function timed(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const ms = (await timeRuns(fn, RUNS)).sort((a, b) => a - b)
  return { p50: ms[Math.floor(RUNS / 2)], p95: ms[Math.floor(RUNS * 0.95)] }
}

async function main() {
  const url = await ensureDatabase('cairn_bench_sorted', process.env.BENCH_RESEED === '1')
  const { orgId, userId } = await seedOpportunities(url)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const deepAmount = (await client.query('SELECT id FROM opportunities WHERE org_id = $1 ORDER BY amount DESC, id DESC OFFSET 400000 LIMIT 1', [orgId])).rows[0].id as string
  const deepName = (await client.query('SELECT id FROM opportunities WHERE org_id = $1 ORDER BY name, id OFFSET 400000 LIMIT 1', [orgId])).rows[0].id as string
  const database = await openPostgres(url)
  const db = database.db

  const page = (query: Record<string, unknown>) => () => listRecordsPage(db, orgId, kind, listOptionsFrom(kind, { limit: 50, ...query }))
  const count = (query: Record<string, unknown>) => async () => {
    const { limit: _limit, ...opts } = listOptionsFrom(kind, query)
    return countRecords(db, orgId, kind, opts)
  }
  const cases: [string, () => Promise<unknown>][] = [
    ['page, default order (-created_at)', page({})],
    ['page, sort=-amount, first', page({ sort: '-amount' })],
    ['page, sort=-amount, 400,000 deep', page({ sort: '-amount', cursor: deepAmount })],
    ['page, sort=name, 400,000 deep', page({ sort: 'name', cursor: deepName })],
    ['page, sort=close_date, first', page({ sort: 'close_date' })],
    ['page, amount[gte]=50000 sort=-amount', page({ sort: '-amount', 'amount[gte]': '50000' })],
    ['page, stage[in]=proposal,negotiation sort=close_date', page({ sort: 'close_date', 'stage[in]': 'proposal,negotiation' })],
    ['count, all (500,000)', count({})],
    ['count, updated_at in the newest 10 minutes', count({ 'updated_at[gte]': '2025-12-31T23:50:00Z' })],
    ['count, stage=proposal', count({ stage: 'proposal' })],
    ['count, amount[gte]=50000 (about half)', count({ 'amount[gte]': '50000' })],
    ['count, amount 50000-51000', count({ 'amount[gte]': '50000', 'amount[lt]': '51000' })],
    ['count, q=deal 4242', count({ q: 'deal 4242' })],
  ]
  console.log(`\nSingle client, ${RUNS} runs each (ms, round trip included):`)
  for (const [name, fn] of cases) {
    const r = await timed(fn)
    console.log(`  ${name.padEnd(54)} p50 ${fmt(r.p50, 1).padStart(7)}   p95 ${fmt(r.p95, 1).padStart(7)}`)
  }
  for (const [name, text] of [
    ['sort=-amount deep', `EXPLAIN SELECT id FROM opportunities r WHERE r.org_id = '${orgId}' AND r.amount IS NOT NULL AND (r.amount, r.id) < (50000, '${deepAmount}') ORDER BY r.amount DESC, r.id DESC LIMIT 51`],
    ['count all', `EXPLAIN SELECT count(*) FROM opportunities r WHERE r.org_id = '${orgId}'`],
  ]) {
    const plan = (await client.query(text)).rows.map((r: Record<string, string>) => r['QUERY PLAN'])
    console.log(`\nPlan, ${name}:\n  ${plan.join('\n  ')}`)
  }
  await client.end()

  const session = await createSession(db, userId, orgId, 3600)
  await database.close()
  const service = await startServiceProcess({ DATABASE_URL: url }, 3703)
  const headers = { cookie: `${SESSION_COOKIE}=${session}` }
  const base = `${service.url}/api/v1/opportunities`
  await load(`${base}?limit=50`, headers, 3)
  console.log(`\nAPI: autocannon, 32 connections, ${SECONDS} s`)
  for (const [name, path] of [
    ['default page', '?limit=50'],
    ['sort=-amount first page', '?limit=50&sort=-amount'],
    ['sort=-amount deep page', `?limit=50&sort=-amount&cursor=${deepAmount}`],
    ['count, stage=proposal', '/count?stage=proposal'],
    ['count, all', '/count'],
  ]) {
    const r = await load(`${base}${path}`, headers, SECONDS)
    console.log(`  ${name.padEnd(26)} ${fmt(r.rps).padStart(7)} req/s   p50 ${fmt(r.p50, 1)} ms   p99 ${fmt(r.p99, 1)} ms   errors ${r.non2xx}`)
  }
  await service.stop()
}

await main()
