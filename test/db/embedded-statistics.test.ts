/**
 * The embedded database has no autovacuum: without the service's own ANALYZE its tables never get
 * statistics, and a list page is planned as a scan and sort of the whole organization. After
 * refreshStatistics the record tables are analyzed and the default page walks the primary key.
 * With `vacuum` (the periodic run, and the end of a CSV import) the tables are vacuumed too, which
 * merges the search GINs' pending lists. Only tables that changed are taken: a run after a run, or
 * a table nobody wrote, is left alone. On PostgreSQL the plugin leaves both to autovacuum.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { FastifyInstance } from 'fastify'
import { createTestDatabase, neverAnalyzed, targets, type TestDatabase } from '../helpers/databases.ts'
import { buildTestApp, createOrgWithAdmin, type Member } from '../helpers/build-app.ts'

const analyzedAccounts = async (app: FastifyInstance) =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stats WHERE tablename = 'accounts'`.execute(app.db)).rows[0].n)

describe.each(await targets())('planner statistics on %s', (target) => {
  let tdb: TestDatabase
  let app: FastifyInstance
  let admin: Member
  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    app = await buildTestApp(tdb.database)
    admin = await createOrgWithAdmin(app)
    // On PostgreSQL, autovacuum would otherwise do what these tests check the plugin leaves alone.
    await neverAnalyzed(app.db, ['accounts', 'contacts'])
    const records = Array.from({ length: 500 }, (_, i) => ({ name: `Account ${i}` }))
    for (let i = 0; i < 2; i++) expect((await admin.request({ method: 'POST', url: '/api/v1/accounts/batch', payload: { operation: 'create', records } })).statusCode).toBe(200)
  })
  afterAll(async () => {
    await app?.close()
    await tdb?.drop()
  })

  it(target === 'pglite' ? 'analyzes the embedded database itself' : 'leaves statistics to autovacuum', async () => {
    const before = await analyzedAccounts(app)
    await app.refreshStatistics()
    const after = await analyzedAccounts(app)
    if (target === 'pglite') {
      expect(before).toBe(0)
      expect(after).toBeGreaterThan(0)
    } else {
      expect(after).toBe(before)
    }
  })

  const vacuums = async (table: string) => Number((await sql<{ n: string }>`SELECT coalesce(vacuum_count, 0) AS n FROM pg_stat_user_tables WHERE relname = ${table}`.execute(app.db)).rows[0].n)

  it(target === 'pglite' ? 'vacuums the tables that changed when asked (the periodic run)' : 'leaves vacuuming to autovacuum', async () => {
    // Accounts grow well past a tenth of their size since the last run; contacts stay empty.
    const records = Array.from({ length: 1000 }, (_, i) => ({ name: `Later account ${i}`, description: 'x'.repeat(200) }))
    for (let i = 0; i < 2; i++) expect((await admin.request({ method: 'POST', url: '/api/v1/accounts/batch', payload: { operation: 'create', records } })).statusCode).toBe(200)
    const before = { accounts: await vacuums('accounts'), contacts: await vacuums('contacts') }
    await app.refreshStatistics({ vacuum: true })
    expect(await vacuums('accounts')).toBe(target === 'pglite' ? before.accounts + 1 : before.accounts)
    expect(await vacuums('contacts')).toBe(before.contacts)
  })

  it('leaves tables that did not change since the last run alone', async () => {
    await app.refreshStatistics({ vacuum: true })
    const before = await vacuums('accounts')
    await app.refreshStatistics({ vacuum: true })
    expect(await vacuums('accounts')).toBe(before)
  })
})
