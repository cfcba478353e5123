/**
 * Pages of one object are written concurrently and commit in order. Cases also take the
 * organization's case-number row: a page that reached it before the page ahead of it used to keep
 * it locked while waiting for that page to commit, and the page ahead waited for the lock — a
 * deadlock PostgreSQL cannot detect, because one side of it waits in the service. PostgreSQL only:
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
import { importPage } from '../../src/migration/import/page-import.ts'
import { ALL_SCOPES } from '../../src/shared/auth-context.ts'
import { analyze, simSettings, sourceTokens } from './helpers.ts'

const sim = await start({ dataset: 'generated', accounts: 20 })
afterAll(() => sim.close())

const onPostgres = (await targets()).includes('postgres')

describe.runIf(onPostgres)('concurrent case pages', () => {
  const h = appPerFile('postgres', simSettings(sim))

  it('commit in order even when the later page is ready first (no deadlock on the case-number row)', async () => {
    const admin = await createOrgWithAdmin(h.app)
    const analyzed = await analyze(admin, await sourceTokens(sim))
    const m = (await findMigration(h.app.db, admin.orgId, analyzed.id, { full: true }))!
    const analysis = m.report!.objects.find((o) => o.name === 'Case')!
    const { ctx, sourceFields } = pageContextOf(
      {
        db: h.app.db,
        orgId: admin.orgId,
        migrationId: m.id,
        config: defaultConfig(['Account', 'Contact', 'Case']),
        analysis,
        objects: m.report!.objects,
        owners: new Map(),
        recordTypes: new Map(),
        actor: { orgId: admin.orgId, userId: null, role: 'admin', scopes: new Set(ALL_SCOPES), via: 'session' },
        now: () => new Date(),
        single: false,
      },
      false,
      false,
    )
    const source = await login(sim)
    const read = await source.query<Record<string, unknown>>(`SELECT ${sourceFields.join(', ')} FROM Case ORDER BY Id LIMIT 20`)
    const records = read.records.map(({ attributes: _, ...r }) => r)
    expect(records).toHaveLength(20)
    const now = new Date()

    // The second page starts first and gets as far as it can before the first page exists.
    let firstCommitted!: () => void
    const afterFirst = new Promise<void>((resolve) => (firstCommitted = resolve))
    const second = importPage(ctx, records.slice(10), { after_id: null }, null, now, afterFirst)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const first = importPage(ctx, records.slice(0, 10), { after_id: null }, null, now).then((delta) => {
      firstCommitted()
      return delta
    })
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the two pages deadlocked')), 10_000))
    const [a, b] = await Promise.race([Promise.all([first, second]), timeout])
    expect(a.created + b.created).toBe(20)

    const numbers = await sql<{ n: number }>`SELECT case_number AS n FROM cases WHERE org_id = ${admin.orgId}`.execute(h.app.db)
    expect(new Set(numbers.rows.map((r) => r.n)).size).toBe(20)
  }, 30_000)
})
