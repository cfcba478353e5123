/**
 * A page's upsert (batch-writer.ts) on both databases: creation times arrive to the millisecond
 * (sent as epoch milliseconds), custom fields arrive exactly and in their records' order (sent as
 * one JSON array), and writing the page again updates in place, merging custom fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { columnsOf, upsertRows, type WriteRow } from '../../src/migration/import/batch-writer.ts'
import { importedRecordId } from '../../src/migration/import/record-ids.ts'
import { kindsByName } from '../../src/records/kinds/index.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'

const contact = kindsByName.contact
const columns = columnsOf(contact, ['first_name', 'last_name', 'email'])

const CUSTOM: Array<Record<string, unknown>> = [
  {},
  { Quote__c: 'say "hi"', Slash__c: 'C:\\path\\', Both__c: '\\"' },
  { Nested__c: { a: [1, 'two', null], b: { c: 'ünïcödé ✓ 日本 😀' } }, Flag__c: false, Score__c: 91.9 },
  { Null__c: null, Text__c: 'NULL', Braces__c: '{a,b}', Lines__c: 'one\ntwo\r\n\tthree' },
]

function rowsOf(createdAt: Date[], custom: Array<Record<string, unknown>>): WriteRow[] {
  return custom.map((c, i) => {
    const src = `003000000000000${String(i).padStart(3, '0')}`
    return { id: importedRecordId(createdAt[i], src), src_id: src, created_at: createdAt[i], fields: { first_name: `F${i}`, last_name: `L${i}`, email: `p${i}@example.com` }, custom_fields: c }
  })
}

for (const target of await targets()) {
  describe(`a page's upsert on ${target}`, () => {
    let tdb: TestDatabase
    let orgId: string
    beforeAll(async () => {
      tdb = await createTestDatabase(target)
      orgId = (await createOrganizationWithAdmin(tdb.database.db, { name: 'Writer', adminEmail: 'w@example.com', adminPassword: 'writer-password' })).orgId
    })
    afterAll(() => tdb?.drop())

    const readBack = async () =>
      (await sql<{ src_id: string; ms: string; custom_fields: Record<string, unknown> }>`
        SELECT src_id, (extract(epoch FROM created_at) * 1000)::bigint::text AS ms, custom_fields FROM contacts
        WHERE org_id = ${orgId} ORDER BY src_id`.execute(tdb.database.db)).rows

    // Milliseconds before 1970, around now, and one whose seconds as a float are not exact.
    const createdAt = [new Date(-86_400_001), new Date('2024-02-29T23:59:59.999Z'), new Date(1_700_000_000_123), new Date(Date.UTC(2026, 10, 24, 11, 0, 0, 7))]

    it('writes creation times to the millisecond and custom fields exactly, in order', async () => {
      const written = await upsertRows(tdb.database.db, orgId, contact, columns, rowsOf(createdAt, CUSTOM), new Date())
      expect(written).toMatchObject({ created: 4, updated: 0 })
      const back = await readBack()
      expect(back.map((r) => Number(r.ms))).toEqual(createdAt.map((d) => d.getTime()))
      expect(back.map((r) => r.custom_fields)).toEqual(CUSTOM)
    })

    it('updates in place on a second write, the source keys winning over the ones kept', async () => {
      const again = CUSTOM.map((c, i) => (i === 1 ? { Quote__c: 'changed "again"' } : i === 3 ? { Extra__c: 'added' } : c))
      const written = await upsertRows(tdb.database.db, orgId, contact, columns, rowsOf(createdAt, again), new Date(), { returnRows: true })
      expect(written).toMatchObject({ created: 0, updated: 4 })
      const back = await readBack()
      expect(back.map((r) => r.custom_fields)).toEqual([CUSTOM[0], { ...CUSTOM[1], Quote__c: 'changed "again"' }, CUSTOM[2], { ...CUSTOM[3], Extra__c: 'added' }])
      expect(back.map((r) => Number(r.ms))).toEqual(createdAt.map((d) => d.getTime()))
    })
  })
}
