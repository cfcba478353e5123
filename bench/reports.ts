/**
 * Benchmark of the reports' aggregates (docs/reports.md) on 1,000,000 opportunities over 10
 * organizations, 500,000 in the big one (bench/seed-opportunities.ts, generate_series on
 * PostgreSQL), in a database of its own (`cairn_bench_reports`). Single-client latency (median and
 * p95 of 20 runs, round trip included) of the pipeline-by-stage-and-owner and won/lost-by-month
 * aggregates over the big organization's whole year (every one of its opportunities), one owner,
 * and a one-month period, each against the same-run baseline: the bare GROUP BY in raw SQL.
 *
 *   node bench/reports.ts      (BENCH_RESEED=1 to seed anew)
 */
import pg from 'pg'
import { openPostgres } from '../src/db/connect.ts'
import { recordReads } from '../src/records/index.ts'
import { ALL_SCOPES, type AuthContext } from '../src/shared/auth-context.ts'
import { ensureDatabase, fmt, timeRuns } from './lib.ts'
import { seedOpportunities } from './seed-opportunities.ts'

const RUNS = 20

async function timed(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const ms = (await timeRuns(fn, RUNS)).sort((a, b) => a - b)
  return { p50: ms[Math.floor(RUNS / 2)], p95: ms[Math.floor(RUNS * 0.95)] }
}

async function main() {
  const url = await ensureDatabase('cairn_bench_reports', process.env.BENCH_RESEED === '1')
  const { orgId, userId } = await seedOpportunities(url)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query('ANALYZE opportunities')
  const database = await openPostgres(url)
  const auth: AuthContext = { orgId, userId, role: 'admin', scopes: new Set(ALL_SCOPES), via: 'session' }
  const year = { from: '2025-06-01', to: '2026-06-01' }
  const raw = (text: string, params: unknown[]) => () => client.query(text, params)
  const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
    [
      'pipeline by stage and owner, a year (500,000)',
      () => recordReads.reports.pipelineByStageAndOwner(database.db, auth, year),
      raw('SELECT stage, owner_id, currency, count(*), sum(amount) FROM opportunities WHERE org_id = $1 AND close_date >= $2 AND close_date < $3 GROUP BY 1, 2, 3', [orgId, year.from, year.to]),
    ],
    [
      'pipeline, a year, one owner',
      () => recordReads.reports.pipelineByStageAndOwner(database.db, auth, { ...year, ownerId: userId }),
      raw('SELECT stage, owner_id, currency, count(*), sum(amount) FROM opportunities WHERE org_id = $1 AND close_date >= $2 AND close_date < $3 AND owner_id = $4 GROUP BY 1, 2, 3', [orgId, year.from, year.to, userId]),
    ],
    [
      'won/lost by month, a year',
      () => recordReads.reports.wonLostByMonth(database.db, auth, year),
      raw("SELECT date_trunc('month', close_date), stage, currency, count(*), sum(amount) FROM opportunities WHERE org_id = $1 AND stage IN ('closed_won', 'closed_lost') AND close_date >= $2 AND close_date < $3 GROUP BY 1, 2, 3", [orgId, year.from, year.to]),
    ],
    [
      'pipeline, one month with no close dates',
      () => recordReads.reports.pipelineByStageAndOwner(database.db, auth, { from: '2025-03-01', to: '2025-04-01' }),
      raw('SELECT stage, owner_id, currency, count(*), sum(amount) FROM opportunities WHERE org_id = $1 AND close_date >= $2 AND close_date < $3 GROUP BY 1, 2, 3', [orgId, '2025-03-01', '2025-04-01']),
    ],
  ]
  console.log(`\nSingle client, ${RUNS} runs each (ms, round trip included): report / raw SQL baseline`)
  for (const [name, report, baseline] of cases) {
    const r = await timed(report)
    const b = await timed(baseline)
    console.log(`  ${name.padEnd(48)} report p50 ${fmt(r.p50, 1).padStart(7)} p95 ${fmt(r.p95, 1).padStart(7)}   raw p50 ${fmt(b.p50, 1).padStart(7)} p95 ${fmt(b.p95, 1).padStart(7)}`)
  }
  const plan = (await client.query(`EXPLAIN SELECT stage, owner_id, currency, count(*), sum(amount) FROM opportunities WHERE org_id = '${orgId}' AND close_date >= '2025-06-01' AND close_date < '2026-06-01' GROUP BY 1, 2, 3`)).rows.map((r: Record<string, string>) => r['QUERY PLAN'])
  console.log(`\nPlan, pipeline a year:\n  ${plan.join('\n  ')}`)
  await client.end()
  await database.close()
}

await main()
