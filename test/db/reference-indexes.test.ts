/**
 * Reference indexes are partial (`WHERE <ref> IS NOT NULL`, migration 0006): a record without the
 * reference costs no index entry. They must still serve every lookup made through them, with the
 * generic plans that prepared statements end up with: a list filtered by the reference (keyset on
 * id) and the ON DELETE action of the composite foreign key, which looks referencing rows up by
 * `$1 = org_id AND $2 = ref`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'

interface PartialIndex {
  table: string
  index: string
  column: string
}

describe.each(await targets())('partial reference indexes on %s', (target) => {
  let t: TestDatabase
  let indexes: PartialIndex[]
  beforeAll(async () => {
    t = await createTestDatabase(target)
    const r = await sql<{ table: string; index: string; def: string }>`
      SELECT tablename AS table, indexname AS index, indexdef AS def FROM pg_indexes
      WHERE schemaname = 'public' AND indexdef ~ '\\(org_id, (\\w+), id\\) WHERE \\(\\1 IS NOT NULL\\)$'
      ORDER BY tablename, indexname`.execute(t.database.db)
    indexes = r.rows.map(({ table, index, def }) => ({ table, index, column: /WHERE \((\w+) IS NOT NULL\)/.exec(def)![1] }))
  })
  afterAll(() => t?.drop())

  it('covers every nullable reference of the record tables', () => {
    expect(indexes.map((i) => `${i.table}.${i.column}`)).toEqual([
      'accounts.owner_id', 'accounts.parent_account_id',
      'activities.account_id', 'activities.case_id', 'activities.contact_id', 'activities.lead_id', 'activities.opportunity_id', 'activities.owner_id',
      'case_comments.author_user_id',
      'cases.account_id', 'cases.contact_id', 'cases.owner_id',
      'contacts.account_id', 'contacts.owner_id',
      'leads.converted_account_id', 'leads.converted_contact_id', 'leads.converted_opportunity_id', 'leads.owner_id',
      'opportunities.account_id', 'opportunities.owner_id',
    ])
  })

  /** The generic plan of `statement` (parameters $1 org, $2 reference, uuids), other paths priced out. */
  async function genericPlan(statement: string): Promise<string> {
    return t.database.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(trx)
      await sql`SET LOCAL enable_seqscan = off`.execute(trx)
      await sql.raw(`PREPARE reference_lookup (uuid, uuid) AS ${statement}`).execute(trx)
      try {
        const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN EXECUTE reference_lookup (gen_random_uuid(), gen_random_uuid())`.execute(trx)
        return plan.rows.map((row) => row['QUERY PLAN']).join('\n')
      } finally {
        await sql`DEALLOCATE reference_lookup`.execute(trx)
      }
    })
  }

  it('serve a list filtered by the reference, in keyset order', async () => {
    for (const { table, index, column } of indexes) {
      const plan = await genericPlan(`SELECT id FROM ${table} WHERE org_id = $1 AND ${column} = $2 ORDER BY id LIMIT 50`)
      expect(plan, `${table}.${column}`).toContain(index)
      expect(plan, `${table}.${column}`).not.toContain('Sort')
    }
  })

  it("serve the foreign key's ON DELETE lookup of referencing rows", async () => {
    for (const { table, index, column } of indexes) {
      const plan = await genericPlan(`UPDATE ONLY ${table} SET ${column} = NULL WHERE $1 OPERATOR(pg_catalog.=) org_id AND $2 OPERATOR(pg_catalog.=) ${column}`)
      expect(plan, `${table}.${column}`).toContain(index)
    }
  })
})
