/**
 * Benchmark of undo (issue 32): 10,000 contacts imported through the CSV import (POST
 * /api/v1/imports, run by the app's own import runner), then the import reverted (POST
 * /api/v1/operations/{import id}/revert, polled until it succeeds). Measured: seconds from the POST
 * to `succeeded`. Baseline, in the same run: the same file imported again, and its rows deleted by
 * one raw SQL DELETE (no tombstones, no journal, no history, no conflict checks), so the ratio says
 * what the revert's path costs over PostgreSQL deleting the rows. The goal is under 10 s.
 *
 *   npm run bench:revert                 PostgreSQL (BENCH_ROWS=10000)
 */
import pg from 'pg'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { openPostgres } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../src/orgs/org.service.ts'
import { createSession, findSession, SESSION_COOKIE } from '../src/orgs/session.service.ts'
import { ensureDatabase, fmt, printCommand } from './lib.ts'

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000)
const DB_NAME = 'cairn_bench_revert'

function csv(round: number): string {
  const lines = ['First Name,Last Name,Email,Title']
  for (let i = 0; i < ROWS; i++) lines.push(`Person,Number ${i},p${round}-${i}@example.com,Engineer`)
  return `${lines.join('\r\n')}\r\n`
}

async function main(): Promise<void> {
  printCommand('bench:revert', { BENCH_ROWS: ROWS })
  const url = await ensureDatabase(DB_NAME, true)
  const database = await openPostgres(url)
  await migrateToLatest(database)
  const app = await buildApp({ config: loadConfig({ DATABASE_URL: url, PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: 'false' }), database, logger: false })
  await app.ready()
  const { orgId, userId } = await createOrganizationWithAdmin(app.db, { name: 'Bench', adminEmail: 'bench@example.test', adminPassword: 'correct horse battery', adminName: 'Bench' })
  const session = await createSession(app.db, userId, orgId, 3600)
  const csrf = (await findSession(app.db, session))!.csrfToken
  const send = (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, cookies: { [SESSION_COOKIE]: session }, headers: { 'x-csrf-token': csrf, ...headers }, ...(payload === undefined ? {} : { payload: payload as string }) })
  const until = async <T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> => {
    for (;;) {
      const v = await read()
      if (done(v)) return v
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  async function importRound(round: number): Promise<string> {
    const form = new FormData()
    form.append('kind', 'contacts')
    form.append('file', new Blob([csv(round)]), 'contacts.csv')
    const encoded = new Response(form)
    const res = await send('POST', '/api/v1/imports', Buffer.from(await encoded.arrayBuffer()), { 'content-type': encoded.headers.get('content-type')! })
    if (res.statusCode !== 202) throw new Error(`import answered ${res.statusCode}: ${res.body}`)
    const id = JSON.parse(res.body).id as string
    const done = await until(async () => JSON.parse((await send('GET', `/api/v1/imports/${id}`)).body), (b) => b.status !== 'queued' && b.status !== 'running')
    if (done.status !== 'completed' || done.created !== ROWS) throw new Error(`import ended ${done.status} with ${done.created} created`)
    return id
  }

  const first = await importRound(1)
  const t0 = performance.now()
  const posted = await send('POST', `/api/v1/operations/${first}/revert`, {})
  if (posted.statusCode !== 202) throw new Error(`revert answered ${posted.statusCode}: ${posted.body}`)
  const status = await until(async () => JSON.parse((await send('GET', `/api/v1/operations/${first}/revert`)).body).data, (s) => s.state !== 'running')
  const revertSeconds = (performance.now() - t0) / 1000
  if (status.state !== 'succeeded' || status.reverted !== ROWS) throw new Error(`revert ended ${status.state}, reverted ${status.reverted}`)

  await importRound(2)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const t1 = performance.now()
  const deleted = await client.query('DELETE FROM contacts WHERE org_id = $1', [orgId])
  const baselineSeconds = (performance.now() - t1) / 1000
  await client.end()
  if (deleted.rowCount !== ROWS) throw new Error(`baseline deleted ${deleted.rowCount}`)

  console.log(`revert of a ${fmt(ROWS)}-record CSV import: ${fmt(revertSeconds, 2)} s (${fmt(ROWS / revertSeconds)} records/s), goal < 10 s`)
  console.log(`baseline, one raw DELETE of the same number of rows: ${fmt(baselineSeconds, 2)} s; revert / baseline ${fmt(revertSeconds / baselineSeconds, 1)}x`)
  await app.close()
}

await main()
