/**
 * The import job in the background: claimed by one runner only however many look (two runners in
 * one process on both databases; two worker processes on one PostgreSQL), resumed after a crash
 * from the last committed page (no row written twice, none skipped), failed cleanly after too many
 * crashes, and a page whose claim was lost meanwhile rolled back whole.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createPostgresDatabase, isPostgresReachable, targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { freePort, signIn } from '../helpers/live-service.ts'
import { spawnService, type ChildService } from '../helpers/service-process.ts'
import { startImportRunner } from '../../src/imports/runner.ts'
import { runImportJob } from '../../src/imports/import-job.ts'
import { sourceLinks } from '../../src/migration/index.ts'
import { claimImport } from '../../src/imports/import.repository.ts'
import { openPostgres } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { systemClock } from '../../src/shared/clock.ts'
import { multipart, startImport } from './helpers.ts'
import { createVia } from '../helpers/samples.ts'

const contactsCsv = (n: number, prefix = 'C') => `last_name,src_id\n${Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(6, '0')},${prefix}-${i}`).join('\n')}\n`

describe.each(await targets())('import jobs on %s', (target) => {
  const ctx = appPerFile(target, { SERVICE_ROLE: 'web' })
  let admin: Member
  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  const runner = (owner: string) => startImportRunner({ db: ctx.app.db, journal: ctx.app.changeJournal, sourceAliases: sourceLinks, clock: systemClock, log: ctx.app.log, concurrency: 2, leaseSeconds: 30, owner, single: target === 'pglite' })
  const contactNames = async () => (await sql<{ last_name: string }>`SELECT last_name FROM contacts WHERE org_id = ${admin.orgId} ORDER BY last_name`.execute(ctx.app.db)).rows.map((r) => r.last_name)
  const importRow = async (id: string) => json(await admin.request({ url: `/api/v1/imports/${id}` }))

  async function queued(csv: string, parts: Record<string, string> = { kind: 'contacts' }): Promise<string> {
    const res = await startImport(admin, parts, csv)
    expect(res.statusCode, res.body).toBe(202)
    return json(res).id
  }

  it('lets one of two claimers take an import, and two runners run it once', async () => {
    const id = await queued(contactsCsv(3500))
    const [a, b] = await Promise.all([claimImport(ctx.app.db, 'a', new Date(), new Date(Date.now() + 30_000)), claimImport(ctx.app.db, 'b', new Date(), new Date(Date.now() + 30_000))])
    expect([a?.id, b?.id].filter(Boolean)).toEqual([id])
    await sql`UPDATE imports SET lease_owner = NULL, lease_until = NULL`.execute(ctx.app.db)

    const runners = [runner('one'), runner('two')]
    await new Promise((r) => setTimeout(r, 100))
    for (const r of runners) await r.settled()
    await Promise.all(runners.map((r) => r.stop()))
    expect(await importRow(id)).toMatchObject({ status: 'completed', processed: 3500, created: 3500, updated: 0, failed: 0 })
    const names = await contactNames()
    expect(names).toHaveLength(3500)
    expect(new Set(names).size).toBe(3500)
    expect((await sql<{ attempts: number }>`SELECT attempts FROM imports WHERE id = ${id}`.execute(ctx.app.db)).rows[0].attempts).toBe(0)
  })

  it('resumes after a crash from the last committed page: no row twice, none skipped', async () => {
    // An import cut off mid-way, as its dead process left it: the first page's records and counts
    // committed together, the lease expired.
    const resumed = await queued(contactsCsv(2500, 'R'))
    await sql`
      INSERT INTO contacts (org_id, id, last_name, src_id, created_at, updated_at)
      SELECT ${admin.orgId}, gen_random_uuid(), 'R' || lpad(i::text, 6, '0'), 'R-' || i, now(), now() FROM generate_series(0, 999) AS i`.execute(ctx.app.db)
    await sql`
      UPDATE imports SET status = 'running', started_at = now(), processed = 1000, created = 1000, lease_owner = 'dead-process', lease_until = now() - interval '1 second'
      WHERE id = ${resumed}`.execute(ctx.app.db)
    const r1 = runner('survivor')
    await new Promise((r) => setTimeout(r, 50))
    await r1.settled()
    await r1.stop()
    expect(await importRow(resumed)).toMatchObject({ status: 'completed', processed: 2500, created: 2500, failed: 0 })
    const names = await contactNames()
    expect(names).toEqual(Array.from({ length: 2500 }, (_, i) => `R${String(i).padStart(6, '0')}`))
    expect((await sql<{ attempts: number }>`SELECT attempts FROM imports WHERE id = ${resumed}`.execute(ctx.app.db)).rows[0].attempts).toBe(1)
  })

  // A page matches its rows by src_id, then another writer commits one of those src_ids before the
  // page writes: the page must find that record and update it, not report the row as a duplicate.
  // The page is held (its lock on the record it updates) until the test has created the other one.
  it.runIf(target === 'postgres')('updates a record another writer created with a src_id after the page matched (dedupe_by=src_id)', async () => {
    const existing = json(await admin.request({ method: 'POST', url: '/api/v1/contacts', payload: { last_name: 'Existing', src_id: 'old-1' } }))
    const id = await queued('last_name,src_id\nChanged,old-1\nArrived,new-1\n', { kind: 'contacts', dedupe_by: 'src_id' })
    let run: ReturnType<typeof startImportRunner> | undefined
    await ctx.app.db.transaction().execute(async (trx) => {
      await sql`SELECT id FROM contacts WHERE org_id = ${admin.orgId} AND id = ${existing.id} FOR UPDATE`.execute(trx)
      run = startImportRunner({ db: ctx.app.db, journal: ctx.app.changeJournal, sourceAliases: sourceLinks, clock: systemClock, log: ctx.app.log, concurrency: 1, leaseSeconds: 30, owner: 'race' })
      const until = Date.now() + 20_000
      // The page has matched old-1 (and found no new-1) and waits for this lock to update old-1.
      while ((await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(ctx.app.db)).rows[0].n === 0) {
        if (Date.now() > until) throw new Error('the page never waited for the lock')
        await new Promise((r) => setTimeout(r, 20))
      }
      await createVia(admin, 'contact', { last_name: 'Other writer', src_id: 'new-1' })
    })
    await new Promise((r) => setTimeout(r, 50))
    await run!.settled()
    await run!.stop()
    expect(await importRow(id)).toMatchObject({ status: 'completed', processed: 2, created: 0, updated: 2, failed: 0 })
    expect(await contactNames()).toEqual(['Arrived', 'Changed'])
  }, 60_000)

  // No unique index holds emails, domains or names (src_id has one): two imports of the same keys at
  // once must still give one record per key (the first creates, the second updates), as run one
  // after the other. The second file writes the keys as the normal form matches them (case, spaces).
  it.each([
    ['contacts', 'src_id', 'last_name,src_id', (i: number) => `S${String(i).padStart(6, '0')},S-${i}`],
    ['contacts', 'email', 'last_name,email', (i: number, again: boolean) => `Person${i},${again ? `p${i}@example.com ` : `P${i}@Example.com`}`],
    ['accounts', 'name', 'name,domain', (i: number, again: boolean) => `${again ? 'company' : 'Company '} ${i},`],
    ['accounts', 'domain', 'name,domain', (i: number, again: boolean) => `Firm ${i},${again ? 'FIRM' : 'firm'}${i}.example`],
  ] as const)('runs two imports of the same keys at once into one record each (%s, dedupe_by=%s)', async (kind, dedupeBy, header, line) => {
    const file = (again: boolean) => `${header}\n${Array.from({ length: 2000 }, (_, i) => line(i, again)).join('\n')}\n`
    const first = await queued(file(false), { kind, dedupe_by: dedupeBy })
    const second = await queued(file(true), { kind, dedupe_by: dedupeBy })
    const r = runner('both')
    await new Promise((res) => setTimeout(res, 100))
    await r.settled()
    await r.stop()
    const [a, b] = [await importRow(first), await importRow(second)]
    expect([a.status, b.status]).toEqual(['completed', 'completed'])
    expect({ created: a.created + b.created, updated: a.updated + b.updated }).toEqual({ created: 2000, updated: 2000 })
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(kind)} WHERE org_id = ${admin.orgId}`.execute(ctx.app.db)).rows[0].n).toBe(2000)
  })

  it('fails cleanly when its processes keep dying, keeping what was imported', async () => {
    const id = await queued(contactsCsv(10))
    await sql`UPDATE imports SET status = 'running', processed = 4, attempts = 2, lease_owner = 'dead', lease_until = now() - interval '1 second' WHERE id = ${id}`.execute(ctx.app.db)
    const r = runner('late')
    await new Promise((res) => setTimeout(res, 50))
    await r.settled()
    await r.stop()
    const done = await importRow(id)
    expect(done.status).toBe('failed')
    expect(done.status_reason).toMatch(/stopped 3 times/)
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM import_file_chunks WHERE import_id = ${id}`.execute(ctx.app.db)).rows[0].n).toBe(0)
  })

  // The cycle of ordered-pages.ts: the page behind writes src_id "dup" first and waits in the
  // service for the page ahead, which then waits in PostgreSQL for the page behind's "dup".
  // Held up by a lock this test holds on the account its first row names, the page ahead reaches
  // its write only after the page behind has written. Without a bound on the wait this never ends.
  it.runIf(target === 'postgres')('does not hang when the page behind writes a src_id the page ahead writes too', async () => {
    const held = json(await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Held Co' } }))
    const lines = Array.from({ length: 2000 }, (_, i) => `P${String(i).padStart(6, '0')},${i === 1 || i === 1000 ? 'dup' : `p-${i}`},${i === 0 ? 'Held Co' : ''}`)
    const id = await queued(`last_name,src_id,account\n${lines.join('\n')}\n`)
    // Read on the connection holding the lock, which pg_backend_pid() leaves out (it holds an xid too);
    // a transaction sees one snapshot of pg_stat_activity until it clears it.
    const activity = async (trx: typeof ctx.app.db) => {
      await sql`SELECT pg_stat_clear_snapshot()`.execute(trx)
      return (await sql<{ waiting: number; written: number }>`
        SELECT count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS waiting,
               count(*) FILTER (WHERE state = 'idle in transaction' AND backend_xid IS NOT NULL)::int AS written
        FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`.execute(trx)).rows[0]
    }
    let run: ReturnType<typeof startImportRunner> | undefined
    await ctx.app.db.transaction().execute(async (trx) => {
      await sql`SELECT id FROM accounts WHERE org_id = ${admin.orgId} AND id = ${held.id} FOR UPDATE`.execute(trx)
      run = startImportRunner({ db: ctx.app.db, journal: ctx.app.changeJournal, sourceAliases: sourceLinks, clock: systemClock, log: ctx.app.log, concurrency: 1, leaseSeconds: 30, owner: 'cycle', aheadPatienceMs: 1500 })
      const until = Date.now() + 20_000
      // The page ahead waits for this lock; the page behind has written its rows ("dup" among them).
      for (let a = await activity(trx); !(a.waiting >= 1 && a.written >= 1); a = await activity(trx)) {
        if (Date.now() > until) throw new Error(`the pages never reached the cycle's start: ${JSON.stringify(a)}`)
        await new Promise((r) => setTimeout(r, 20))
      }
      await new Promise((r) => setTimeout(r, 200))
    })
    await new Promise((r) => setTimeout(r, 50))
    const settled = await Promise.race([run!.settled().then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 20_000))])
    await run!.stop()
    expect(settled, 'the import hung: two pages waited on each other').toBe(true)
    expect(await importRow(id)).toMatchObject({ status: 'completed_with_errors', processed: 2000, created: 1999, failed: 1 })
    const issues = (await admin.request({ url: `/api/v1/imports/${id}/issues.csv` })).body
    expect(issues).toMatch(/^1002,src_id,src_id,is already the src_id of a contact/m)
    const dup = (await sql<{ last_name: string; account_id: string | null }>`SELECT last_name, account_id FROM contacts WHERE org_id = ${admin.orgId} AND src_id = 'dup'`.execute(ctx.app.db)).rows
    expect(dup).toEqual([{ last_name: 'P000001', account_id: null }])
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM contacts WHERE org_id = ${admin.orgId} AND account_id = ${held.id}`.execute(ctx.app.db)).rows[0].n).toBe(1)
  }, 60_000)

  it('rolls a page back whole when another process took the import meanwhile', async () => {
    const id = await queued(contactsCsv(50))
    const row = (await claimImport(ctx.app.db, 'slow', new Date(), new Date(Date.now() + 30_000)))!
    expect(row.id).toBe(id)
    await sql`UPDATE imports SET lease_owner = 'thief' WHERE id = ${id}`.execute(ctx.app.db)
    // markRunning already refuses: the job stops without writing.
    await runImportJob({ db: ctx.app.db, journal: ctx.app.changeJournal, sourceAliases: sourceLinks, owner: 'slow', row, now: () => new Date(), gate: () => {}, pagesInFlight: 1 })
    expect(await contactNames()).toEqual([])
    // Claimed and running, then lost between pages: the page's records and counts roll back together.
    await sql`UPDATE imports SET lease_owner = 'slow', status = 'running' WHERE id = ${id}`.execute(ctx.app.db)
    let pages = 0
    const job = runImportJob({
      db: ctx.app.db,
      journal: ctx.app.changeJournal,
      sourceAliases: sourceLinks,
      owner: 'slow',
      row,
      now: () => new Date(),
      pagesInFlight: 1,
      gate: async () => {
        if (pages++ === 0) await sql`UPDATE imports SET lease_owner = 'thief' WHERE id = ${id}`.execute(ctx.app.db)
      },
    })
    await job
    expect(await contactNames()).toEqual([])
    expect((await sql<{ processed: number }>`SELECT processed FROM imports WHERE id = ${id}`.execute(ctx.app.db)).rows[0].processed).toBe(0)
    expect(pages).toBe(1)
  })
})

const reachable = await isPostgresReachable()
if (!reachable && process.env.CI === 'true') throw new Error('CI=true and PostgreSQL is not reachable')

describe.runIf(reachable)('imports with several processes on one PostgreSQL', () => {
  const cleanups: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c()
  })

  it('an API process queues, two workers share the work, and a killed worker’s import finishes elsewhere, each row once', async () => {
    const pgdb = await createPostgresDatabase()
    cleanups.push(() => pgdb.drop())
    const database = await openPostgres(pgdb.url)
    await migrateToLatest(database)
    const { orgId } = await createOrganizationWithAdmin(database.db, { name: 'Many', adminEmail: 'many@example.test', adminPassword: 'password1234' })

    const common = { DATABASE_URL: pgdb.url, PUBLIC_URL: 'http://127.0.0.1:1', IMPORT_LEASE_SECONDS: '2' }
    const port = await freePort()
    const web = await spawnService({ ...common, PORT: String(port), SERVICE_ROLE: 'web' })
    const workers: ChildService[] = []
    cleanups.push(async () => {
      for (const s of [web, ...workers]) await s.kill('SIGTERM')
      await database.close()
    })
    const base = `http://127.0.0.1:${port}`
    const cookie = await signIn(base, 'many@example.test', 'password1234')
    const csrf = (await (await fetch(`${base}/api/v1/me`, { headers: { cookie } })).json()).csrf_token
    // The workers first, so that the large import is watched from its first page.
    workers.push(...(await Promise.all([0, 1].map(async () => spawnService({ ...common, PORT: String(await freePort()), SERVICE_ROLE: 'worker' })))))
    const ids: string[] = []
    for (const [prefix, n] of [['A', 60_000], ['B', 3000], ['C', 3000]] as const) {
      const body = await multipart({ kind: 'contacts' }, { text: contactsCsv(n, prefix) })
      const res = await fetch(`${base}/api/v1/imports`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf, ...body.headers }, body: new Uint8Array(body.payload) })
      expect(res.status).toBe(202)
      ids.push((await res.json()).id)
    }

    // Kill whichever worker holds the large import once it has committed a page.
    let holder: ChildService | undefined
    const deadline = Date.now() + 90_000
    while (!holder && Date.now() < deadline) {
      const r = await sql<{ lease_owner: string | null; processed: number }>`SELECT lease_owner, processed FROM imports WHERE id = ${ids[0]}`.execute(database.db)
      const { lease_owner: owner, processed } = r.rows[0]
      if (owner && processed > 0 && processed < 60_000) holder = workers.find((w) => owner.startsWith(`${w.child.pid}-`))
      else await new Promise((res) => setTimeout(res, 25))
    }
    expect(holder, 'a worker held the large import mid-way').toBeDefined()
    await holder!.kill('SIGKILL')

    const status = async (id: string) => (await (await fetch(`${base}/api/v1/imports/${id}`, { headers: { cookie } })).json()) as Record<string, any>
    const end = Date.now() + 120_000
    while (Date.now() < end) {
      const all = await Promise.all(ids.map(status))
      if (all.every((s) => s.status === 'completed')) break
      await new Promise((res) => setTimeout(res, 100))
    }
    const done = await Promise.all(ids.map(status))
    expect(done.map((d) => [d.status, d.processed, d.created])).toEqual([
      ['completed', 60_000, 60_000],
      ['completed', 3000, 3000],
      ['completed', 3000, 3000],
    ])
    const counts = await sql<{ n: number; distinct_names: number }>`SELECT count(*)::int AS n, count(DISTINCT last_name)::int AS distinct_names FROM contacts WHERE org_id = ${orgId}`.execute(database.db)
    expect(counts.rows[0]).toEqual({ n: 66_000, distinct_names: 66_000 })
    const attempts = await sql<{ attempts: number }>`SELECT attempts FROM imports WHERE id = ${ids[0]}`.execute(database.db)
    expect(attempts.rows[0].attempts).toBe(1)
  }, 300_000)
})
