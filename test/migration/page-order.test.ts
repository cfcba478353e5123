/**
 * Pages of one object are written concurrently and commit in order. Cases also take the
 * organization's case-number row: a page that reached it before the page ahead of it used to keep
 * it locked while waiting for that page to commit, and the page ahead waited for the lock — a
 * deadlock PostgreSQL cannot detect, because one side of it waits in the service. And a page with a
 * deduplication rule must see the records of the pages before it. PostgreSQL only:
 * the embedded database writes one page at a time.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { start, login } from '../source-sim/helpers.ts'
import { appPerFile, createOrgWithAdmin } from '../helpers/build-app.ts'
import { targets } from '../helpers/databases.ts'
import { findMigration } from '../../src/migration/migration.repository.ts'
import { defaultConfig } from '../../src/migration/migration.defaults.ts'
import { pageContextOf } from '../../src/migration/import/object-step.ts'
import { PageInFlight } from '../../src/migration/import/page-in-flight.ts'
import { importPage, PageLockTimeout, type PageContext } from '../../src/migration/import/page-import.ts'
import { describeFailure } from '../../src/migration/runner/job-failures.ts'
import { ALL_SCOPES } from '../../src/shared/auth-context.ts'
import { analyze, simSettings, sourceTokens } from './helpers.ts'

const sim = await start({ dataset: 'generated', accounts: 20 })
afterAll(() => sim.close())

const onPostgres = (await targets()).includes('postgres')

describe.runIf(onPostgres)('concurrent pages of one object', () => {
  const h = appPerFile('postgres', simSettings(sim))

  /** A migration analysed from the simulator, and the page context of one of its objects. */
  async function pageContext(object: string) {
    const admin = await createOrgWithAdmin(h.app)
    const analyzed = await analyze(admin, await sourceTokens(sim))
    const m = (await findMigration(h.app.db, admin.orgId, analyzed.id, { full: true }))!
    const { ctx, sourceFields } = pageContextOf(
      {
        db: h.app.db,
        orgId: admin.orgId,
        migrationId: m.id,
        config: defaultConfig(['Account', 'Contact', 'Case']),
        analysis: m.report!.objects.find((o) => o.name === object)!,
        objects: m.report!.objects,
        owners: new Map(),
        recordTypes: new Map(),
        writer: { auth: { orgId: admin.orgId, userId: null, role: 'admin', scopes: new Set(ALL_SCOPES), via: 'session' }, actor: { userId: null, clientId: null, channel: 'migration' }, operationId: m.id, journal: h.app.changeJournal },
        now: () => new Date(),
        single: false,
      },
      false,
      false,
    )
    const source = await login(sim)
    const read = await source.query<Record<string, unknown>>(`SELECT ${sourceFields.join(', ')} FROM ${object} ORDER BY Id LIMIT 20`)
    const records = read.records.map(({ attributes: _, ...r }) => r)
    expect(records).toHaveLength(20)
    return { orgId: admin.orgId, ctx, records }
  }

  /** Imports two pages chained as object-step chains them, the second started first. */
  async function secondPageFirst(ctx: PageContext, first: Record<string, unknown>[], second: Record<string, unknown>[]) {
    const now = new Date()
    const firstPage = new PageInFlight()
    const later = importPage(ctx, second, { after_id: null }, null, now, new PageInFlight(firstPage))
    // The second page gets as far as it can before the first page exists.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const earlier = importPage(ctx, first, { after_id: null }, null, now, firstPage)
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the two pages deadlocked')), 10_000))
    return Promise.race([Promise.all([earlier, later]), timeout])
  }

  it('turn a wait on each other into a clear failure after the lock timeout, not a hang (one record in two pages)', async () => {
    const { orgId, ctx, records } = await pageContext('Account')
    const short = { ...ctx, lockTimeoutMs: 500 }
    const repeated = records[0]!
    // The later page, ready first, writes the repeated record and waits for the page ahead to commit;
    // the page ahead needs that record's row. Object-step chains pages like this: the later page
    // waits for the earlier page's own promise, and fails with it.
    const now = new Date()
    const firstPage = new PageInFlight()
    const later = importPage(short, [repeated, ...records.slice(10)], { after_id: null }, null, now, new PageInFlight(firstPage))
    await new Promise((resolve) => setTimeout(resolve, 300))
    const earlier = importPage(short, [repeated, ...records.slice(1, 10)], { after_id: null }, null, now, firstPage)
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the two pages hung')), 10_000))
    const outcomes = await Promise.race([Promise.allSettled([earlier, later]), timeout])
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    const error = (outcomes[0] as PromiseRejectedResult).reason
    expect(error).toBeInstanceOf(PageLockTimeout)
    expect(describeFailure(error, 'import')).toEqual({ kind: 'failed', reason: expect.stringMatching(/^A page of Account waited more than 1 s for records another write held .* a new migration of the same source updates them/) })
    // Neither page left anything behind.
    const accounts = await sql<{ n: number }>`SELECT count(*)::int AS n FROM accounts WHERE org_id = ${orgId}`.execute(h.app.db)
    expect(accounts.rows[0]!.n).toBe(0)
  }, 30_000)

  it('commit in order even when the later page is ready first (no deadlock on the case-number row)', async () => {
    const { orgId, ctx, records } = await pageContext('Case')
    const [a, b] = await secondPageFirst(ctx, records.slice(0, 10), records.slice(10))
    expect(a.created + b.created).toBe(20)
    const numbers = await sql<{ n: number }>`SELECT case_number AS n FROM cases WHERE org_id = ${orgId}`.execute(h.app.db)
    expect(new Set(numbers.rows.map((r) => r.n)).size).toBe(20)
  }, 30_000)

  it('deduplicate against the pages before them, though the later page was read and mapped first', async () => {
    const { orgId, ctx, records } = await pageContext('Contact')
    const valid = (r: Record<string, unknown>) => typeof r.Email === 'string' && /^[^@\s]+@[^@\s]+\.[a-z]+$/i.test(r.Email)
    const original = records.slice(0, 10).find(valid)!
    const copyIndex = records.slice(10).findIndex(valid) + 10
    expect(original && copyIndex >= 10).toBeTruthy()
    records[copyIndex] = { ...records[copyIndex], Email: String(original.Email).toUpperCase() }
    const [a, b] = await secondPageFirst(ctx, records.slice(0, 10), records.slice(10))
    expect(a.linked).toBe(0)
    expect(b.linked).toBe(1)
    const found = await sql<{ n: number }>`SELECT count(*)::int AS n FROM contacts WHERE org_id = ${orgId} AND lower(email) = lower(${String(original.Email)})`.execute(h.app.db)
    expect(found.rows[0].n).toBe(1)
  }, 30_000)

  /**
   * Three chained pages: a stand-in page 0 that has not committed, then `first` and `second`. The
   * first page decides and writes, then waits for page 0's commit. Returns once the second page has
   * decided while neither page 0 nor the first page has committed (a page used to wait for the commit
   * of the page ahead before deduplicating or numbering), then lets all commit.
   */
  async function decidedBeforeTheAheadCommits(ctx: PageContext, first: Record<string, unknown>[], second: Record<string, unknown>[]) {
    const now = new Date()
    const page0 = new PageInFlight()
    page0.decide()
    const firstPage = new PageInFlight(page0)
    const secondPage = new PageInFlight(firstPage)
    const earlier = importPage(ctx, first, { after_id: null }, null, now, firstPage)
    const later = importPage(ctx, second, { after_id: null }, null, now, secondPage)
    const timeout = (what: string) => new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), 10_000))
    await Promise.race([secondPage.decided, timeout('the second page waited for the first to commit')])
    let firstCommitted = false
    void firstPage.committed.then(() => (firstCommitted = true))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(firstCommitted).toBe(false)
    page0.commit()
    return Promise.race([Promise.all([earlier, later]), timeout('the pages did not commit')])
  }

  it('deduplicate against a page ahead that has decided but not committed', async () => {
    const { orgId, ctx, records } = await pageContext('Contact')
    const valid = (r: Record<string, unknown>) => typeof r.Email === 'string' && /^[^@\s]+@[^@\s]+\.[a-z]+$/i.test(r.Email)
    const original = records.slice(0, 10).find(valid)!
    const copyIndex = records.slice(10).findIndex(valid) + 10
    records[copyIndex] = { ...records[copyIndex], Email: ` ${String(original.Email).toUpperCase()}` }
    const [a, b] = await decidedBeforeTheAheadCommits(ctx, records.slice(0, 10), records.slice(10))
    expect([a.linked, b.linked]).toEqual([0, 1])
    const found = await sql<{ id: string; src_id: string }>`SELECT id, src_id FROM contacts WHERE org_id = ${orgId} AND lower(btrim(email)) = lower(${String(original.Email)})`.execute(h.app.db)
    expect(found.rows.map((r) => r.src_id)).toEqual([original.Id])
    const link = await sql<{ record_id: string }>`SELECT record_id FROM migration_links WHERE org_id = ${orgId} AND src_id = ${String(records[copyIndex].Id)}`.execute(h.app.db)
    expect(link.rows.map((r) => r.record_id)).toEqual([found.rows[0].id])
  }, 30_000)

  it('number cases apart from the numbers a page ahead gave but has not committed', async () => {
    const { orgId, ctx, records } = await pageContext('Case')
    // The second page has a case asking for a number the first page's case keeps.
    records[15] = { ...records[15], CaseNumber: records[3].CaseNumber }
    const [a, b] = await decidedBeforeTheAheadCommits(ctx, records.slice(0, 10), records.slice(10))
    expect(a.created + b.created).toBe(20)
    const numbers = await sql<{ src_id: string; n: number }>`SELECT src_id, case_number AS n FROM cases WHERE org_id = ${orgId}`.execute(h.app.db)
    const bySrc = new Map(numbers.rows.map((r) => [r.src_id, r.n]))
    expect(new Set(bySrc.values()).size).toBe(20)
    expect(bySrc.get(String(records[3].Id))).toBe(Number(records[3].CaseNumber))
    expect(bySrc.get(String(records[15].Id))).not.toBe(Number(records[3].CaseNumber))
  }, 30_000)
})
