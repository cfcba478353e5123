/**
 * Lookups of many keys, one index probe per key: `keys CROSS JOIN LATERAL (... LIMIT 1)`.
 *
 * Written as `column = ANY(keys)`, the plan depended on the table's statistics: on a table not
 * analyzed since the organization's rows arrived (an import's own tables, mid-run), PostgreSQL read
 * every row of the organization for each page instead, 60-90 ms against 11-14 ms for 2,000 ids
 * among 176,000 contacts, and the import's database time per record doubled from 100k to 1M
 * records. LIMIT 1 keeps each subquery a lookup of its own: PostgreSQL does not flatten it into a
 * join whose plan would again depend on statistics (test/migration/lookup-plans.test.ts).
 */
import { sql, type RawBuilder } from 'kysely'
import { jsonArray } from './json-array.ts'

/**
 * A FROM item `w(k)` joined with `alias`: for each of `keys` (sent as a JSON array, json-array.ts,
 * and read as `sqlType`), the first row of `lookup(w.k)`.
 */
export function eachKey(keys: readonly unknown[], sqlType: string, alias: string, lookup: (key: RawBuilder<unknown>) => RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(SELECT CAST(e AS ${sql.raw(sqlType)}) AS k FROM json_array_elements_text(CAST(${jsonArray(keys)} AS json)) AS e) AS w CROSS JOIN LATERAL (${lookup(sql`w.k`)} LIMIT 1) AS ${sql.raw(alias)}`
}
