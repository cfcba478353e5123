/**
 * A page's lookups (source ids, deduplication keys, case numbers), and the records API's `ids`
 * filter, read only the index entries of the ids they look for, whatever the planner's statistics say. The contacts and cases tables here hold
 * 30,000 rows each of one organization and were never analyzed, as an import's own tables are
 * mid-run; the earlier
 * `src_id = ANY(ids)` form read every row of the organization for each page there.
 * Counted with PostgreSQL's per-transaction statistics of the table and its indexes: a few entries
 * per id (index entry, row), against the 30,000 of reading the organization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../src/db/database.ts'
import { findDuplicates } from '../../src/migration/import/dedup.ts'
import { recordBulk } from '../../src/records/index.ts'
import { kindsByName } from '../../src/records/contracts.ts'
import { sourceLinks } from '../../src/migration/index.ts'
import { listRecordsPage } from '../../src/records/record.repository.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { createTestDatabase, neverAnalyzed, targets, type TestDatabase } from '../helpers/databases.ts'

const ROWS = 30_000
const contact = kindsByName.contact
const srcId = (i: number) => `0035g${String(i).padStart(13, '0')}`

for (const target of await targets()) {
  describe(`import lookups on a table without statistics, on ${target}`, () => {
    let tdb: TestDatabase
    let orgId: string
    beforeAll(async () => {
      tdb = await createTestDatabase(target)
      orgId = (await createOrganizationWithAdmin(tdb.database.db, { name: 'Lookups', adminEmail: 'l@example.com', adminPassword: 'lookup-password' })).orgId
      await neverAnalyzed(tdb.database.db, ['contacts', 'cases'])
      await sql`
        INSERT INTO contacts (org_id, id, created_at, updated_at, src_id, last_name, email)
        SELECT ${orgId}, gen_random_uuid(), now(), now(), '0035g' || lpad(i::text, 13, '0'), 'Person ' || i, 'p' || i || '@example.com'
        FROM generate_series(1, ${ROWS}) AS i`.execute(tdb.database.db)
      await sql`
        INSERT INTO cases (org_id, id, created_at, updated_at, src_id, case_number, subject)
        SELECT ${orgId}, gen_random_uuid(), now(), now(), '5005g' || lpad(i::text, 13, '0'), i, 'Case ' || i
        FROM generate_series(1, ${ROWS}) AS i`.execute(tdb.database.db)
      await sql`INSERT INTO org_counters (org_id, name, value) VALUES (${orgId}, 'case_number', ${ROWS})`.execute(tdb.database.db)
    }, 60_000)
    afterAll(() => tdb?.drop())

    /** Runs `lookup` and returns how many rows and index entries it read from contacts. */
    async function entriesRead(lookup: (trx: Kysely<DB>) => Promise<unknown>, table = 'contacts'): Promise<number> {
      return tdb.database.db.transaction().execute(async (trx) => {
        // The counts include the connection's earlier statements not yet flushed: take the difference.
        const count = async () =>
          Number((await sql<{ n: string }>`
            SELECT (pg_stat_get_xact_tuples_returned(${table}::regclass)
              + (SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0) FROM pg_index WHERE indrelid = ${table}::regclass))::text AS n`.execute(trx)).rows[0].n)
        const before = await count()
        await lookup(trx)
        return (await count()) - before
      })
    }

    const ids = Array.from({ length: 500 }, (_, i) => srcId(1 + i * 37))

    it('finds records by source id reading only their own entries', async () => {
      let found = new Map<string, unknown>()
      const read = await entriesRead(async (trx) => (found = await recordBulk.knownSourceIds(trx, sourceLinks, orgId, contact, [...ids, '0035gMISSING000000'])))
      expect(found.size).toBe(ids.length)
      expect(read).toBeLessThan(ids.length * 4)
    })

    it('tells imported from linked source ids reading only their own entries', async () => {
      let known = new Map<string, unknown>()
      const read = await entriesRead(async (trx) => (known = await recordBulk.knownSourceIds(trx, sourceLinks, orgId, contact, ids)))
      expect([...known.values()].every((k) => (k as { via: string }).via === 'record')).toBe(true)
      expect(known.size).toBe(ids.length)
      expect(read).toBeLessThan(ids.length * 4)
    })

    it('finds duplicates by email reading only their own entries', async () => {
      const rule = { field: 'email', normalize: (s: string) => s.trim().toLowerCase(), sqlKey: 'lower(btrim(email))', action: 'link' as const, describe: 'email' }
      const candidates = Array.from({ length: 500 }, (_, i) => ({ id: crypto.randomUUID(), value: ` P${1 + i * 37}@Example.com ` }))
      let decisions: Awaited<ReturnType<typeof findDuplicates>> = []
      const read = await entriesRead(async (trx) => (decisions = await findDuplicates(trx, orgId, contact, rule, candidates)))
      expect(decisions.every((d) => d.match && !d.inPage)).toBe(true)
      expect(read).toBeLessThan(candidates.length * 4)
    })

    it('numbers cases reading only the entries of their source ids and wanted numbers', async () => {
      // 250 cases imported before (they keep their numbers), 250 new ones asking for taken numbers.
      const before = Array.from({ length: 250 }, (_, i) => ({ src_id: `5005g${String(1 + i * 97).padStart(13, '0')}`, sourceNumber: '1' }))
      const fresh = Array.from({ length: 250 }, (_, i) => ({ src_id: `500NEW${String(i).padStart(12, '0')}`, sourceNumber: String(1 + i * 89) }))
      let numbers = new Map<string, number>()
      const read = await entriesRead(async (trx) => (numbers = await recordBulk.numberImportedCases(trx, orgId, [...before, ...fresh])), 'cases')
      expect(numbers.get(before[1].src_id)).toBe(98)
      expect(fresh.every((c) => numbers.get(c.src_id)! > ROWS)).toBe(true)
      expect(read).toBeLessThan(2000)
    })

    it("lists the records of an `ids` filter reading only their own entries (the records API's list)", async () => {
      const wanted = [...(await recordBulk.knownSourceIds(tdb.database.db, sourceLinks, orgId, contact, ids.slice(0, 100))).values()].map((k) => k.id)
      let json = ''
      const read = await entriesRead(async (trx) => (json = (await listRecordsPage(trx, orgId, contact, { limit: 50, filters: [], ids: [...wanted, wanted[0]] })).json))
      const page = JSON.parse(json) as { data: Array<{ id: string }>; has_more: boolean }
      expect(page.data.map((r) => r.id)).toEqual([...wanted].sort().reverse().slice(0, 50))
      expect(page.has_more).toBe(true)
      expect(read).toBeLessThan(300)
    })
  })
}
