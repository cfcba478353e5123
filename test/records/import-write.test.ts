/**
 * The import write path (records/bulk/import-write.ts) on both databases: creation times arrive to
 * the millisecond (sent as epoch milliseconds), custom fields arrive exactly and in their records'
 * order (sent as one JSON array), writing the page again updates in place, merging custom fields,
 * and the events, when asked for, carry each record as it was before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { importedRecordId } from '../../src/migration/import/record-ids.ts'
import { recordBulk, recordChanges } from '../../src/records/index.ts'
import type { ChangeJournal, ImportedRow, WriteTx } from '../../src/records/index.ts'
import { kindsByName } from '../../src/records/contracts.ts'
import { uuidv7 } from '../../src/shared/ids.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { ALL_SCOPES, type AuthContext } from '../../src/shared/auth-context.ts'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'

const contact = kindsByName.contact
const columns = recordBulk.columnsOf(contact, ['first_name', 'last_name', 'email'])

const CUSTOM: Array<Record<string, unknown>> = [
  {},
  { Quote__c: 'say "hi"', Slash__c: 'C:\\path\\', Both__c: '\\"' },
  { Nested__c: { a: [1, 'two', null], b: { c: 'ünïcödé ✓ 日本 😀' } }, Flag__c: false, Score__c: 91.9 },
  { Null__c: null, Text__c: 'NULL', Braces__c: '{a,b}', Lines__c: 'one\ntwo\r\n\tthree' },
]

function rowsOf(createdAt: Date[], custom: Array<Record<string, unknown>>): ImportedRow[] {
  return custom.map((c, i) => {
    const src = `003000000000000${String(i).padStart(3, '0')}`
    return { id: importedRecordId(createdAt[i], src), src_id: src, created_at: createdAt[i], fields: { first_name: `F${i}`, last_name: `L${i}`, email: `p${i}@example.com` }, custom_fields: c }
  })
}

for (const target of await targets()) {
  describe(`the import write path on ${target}`, () => {
    let tdb: TestDatabase
    let orgId: string
    let actor: AuthContext
    const seen: Array<{ action: string; id: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }> = []
    // A journal that only watches: what the import write path hands to it, in its transaction.
    const journal: ChangeJournal = {
      async record(_trx, _writer, action, changes) {
        for (const c of changes) seen.push({ action, id: c.id, before: c.before, after: c.after })
        return false
      },
      committed() {},
    }
    const write = <T>(work: (tx: WriteTx) => Promise<T>) =>
      recordChanges.inWriteTransaction(tdb.database.db, { auth: actor, actor: { userId: null, clientId: null, channel: 'migration' }, operationId: uuidv7(), journal }, work)
    beforeAll(async () => {
      tdb = await createTestDatabase(target)
      orgId = (await createOrganizationWithAdmin(tdb.database.db, { name: 'Writer', adminEmail: 'w@example.com', adminPassword: 'writer-password' })).orgId
      actor = { orgId, userId: null, role: 'admin', scopes: new Set(ALL_SCOPES), via: 'session' }
    })
    afterAll(async () => {
      await tdb?.drop()
    })

    const readBack = async () =>
      (await sql<{ src_id: string; ms: string; custom_fields: Record<string, unknown> }>`
        SELECT src_id, (extract(epoch FROM created_at) * 1000)::bigint::text AS ms, custom_fields FROM contacts
        WHERE org_id = ${orgId} ORDER BY src_id`.execute(tdb.database.db)).rows

    // Milliseconds before 1970, around now, and one whose seconds as a float are not exact.
    const createdAt = [new Date(-86_400_001), new Date('2024-02-29T23:59:59.999Z'), new Date(1_700_000_000_123), new Date(Date.UTC(2026, 10, 24, 11, 0, 0, 7))]

    it('writes creation times to the millisecond and custom fields exactly, in order', async () => {
      const written = await write((tx) => recordBulk.upsertImported(tx, contact, columns, rowsOf(createdAt, CUSTOM), new Date()))
      expect(written).toMatchObject({ created: 4, updated: 0 })
      const back = await readBack()
      expect(back.map((r) => Number(r.ms))).toEqual(createdAt.map((d) => d.getTime()))
      expect(back.map((r) => r.custom_fields)).toEqual(CUSTOM)
    })

    it('updates in place on a second write, the source keys winning over the ones kept', async () => {
      const again = CUSTOM.map((c, i) => (i === 1 ? { Quote__c: 'changed "again"' } : i === 3 ? { Extra__c: 'added' } : c))
      const written = await write((tx) => recordBulk.upsertImported(tx, contact, columns, rowsOf(createdAt, again), new Date(), { returnIds: true }))
      expect(written).toMatchObject({ created: 0, updated: 4 })
      const back = await readBack()
      expect(back.map((r) => r.custom_fields)).toEqual([CUSTOM[0], { ...CUSTOM[1], Quote__c: 'changed "again"' }, CUSTOM[2], { ...CUSTOM[3], Extra__c: 'added' }])
      expect(back.map((r) => Number(r.ms))).toEqual(createdAt.map((d) => d.getTime()))
    })
    it('emits created and updated events with the record before and after, and none unless asked', async () => {
      seen.length = 0
      const fresh = rowsOf(createdAt, CUSTOM).map((r, i) => ({ ...r, id: importedRecordId(createdAt[i], `X${r.src_id}`), src_id: `X${r.src_id}` }))
      await write((tx) => recordBulk.upsertImported(tx, contact, columns, fresh, new Date()))
      expect(seen).toEqual([])
      const changed = fresh.map((r) => ({ ...r, fields: { ...r.fields, last_name: `${r.fields.last_name} changed` } }))
      await write((tx) => recordBulk.upsertImported(tx, contact, columns, [changed[0], { ...fresh[1], src_id: 'Xnew', id: importedRecordId(createdAt[1], 'Xnew') }], new Date(), { emitEvents: true }))
      expect(seen.map((e) => e.action)).toEqual(['created', 'updated'])
      const updated = seen[1]
      expect(updated.before?.last_name).toBe('L0')
      expect(updated.after?.last_name).toBe('L0 changed')
      seen.length = 0
      await write((tx) => recordBulk.updateMatched(tx, contact, columns, [{ id: updated.id, src_id: 'ignored', fields: { first_name: 'M', last_name: 'Matched' }, custom_fields: { Via__c: 'dedup' } }], new Date(), { emitEvents: true }))
      expect(seen).toHaveLength(1)
      expect(seen[0]).toMatchObject({ action: 'updated', id: updated.id, before: { last_name: 'L0 changed' }, after: { last_name: 'Matched', email: null, src_id: 'X003000000000000000' } })
    })
  })
}
