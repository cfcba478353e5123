/**
 * The import sends each column of a page as one array literal (array-literal.ts).
 * Every value must reach PostgreSQL exactly as it was: read back through each column type the
 * import writes, on both databases, with the values that need quoting or escaping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { arrayLiteral } from '../../src/migration/import/array-literal.ts'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'

const TEXTS = [
  'plain', '', ' ', '  padded  ', 'NULL', 'null', 'Null', 'NULLS', 'with, comma', '{braces}', 'a"quote', 'back\\slash', '\\"both\\"',
  'line\nbreak', 'tab\there', 'carriage\rreturn', 'ünïcödé ✓ 日本', '😀 emoji', "it's", 'x'.repeat(5000), '-', '+1', 'a@b.co', '00a5g0000012345AAA',
]

for (const target of await targets()) {
  describe(`array literals on ${target}`, () => {
    let tdb: TestDatabase
    beforeAll(async () => {
      tdb = await createTestDatabase(target)
    })
    afterAll(() => tdb?.drop())

    const roundTrip = async <T>(values: unknown[], type: string, asText = false): Promise<T[]> => {
      const expr = asText ? sql`CAST(CAST(${arrayLiteral(values)} AS ${sql.raw(type)}[]) AS text[])` : sql`CAST(${arrayLiteral(values)} AS ${sql.raw(type)}[])`
      const r = await sql<{ a: T[] }>`SELECT ${expr} AS a`.execute(tdb.database.db)
      return r.rows[0].a
    }

    it('keeps every text value, null and undefined as null', async () => {
      expect(await roundTrip([...TEXTS, null, undefined], 'text')).toEqual([...TEXTS, null, null])
    })

    it('keeps JSON documents (custom_fields) with quotes, backslashes and unicode', async () => {
      const docs = [{}, { a: 'x"y', b: 'back\\slash', c: [1, 'two', null], d: { e: 'ünï' } }, { 'key with space': 'NULL' }]
      const back = await roundTrip<unknown>(docs.map((d) => JSON.stringify(d)), 'jsonb')
      expect(back.map((d) => (typeof d === 'string' ? JSON.parse(d) : d))).toEqual(docs)
    })

    it('keeps uuids, timestamps, dates, numbers and booleans', async () => {
      const ids = ['0190f3a2-1c2d-7e4f-8a9b-000000000001', '0190f3a2-1c2d-7e4f-8a9b-00000000000f']
      expect(await roundTrip([...ids, null], 'uuid')).toEqual([...ids, null])
      const times = await roundTrip<string>(['2024-03-01T10:00:00.123Z', null], 'timestamptz', true)
      expect(new Date(times[0].replace(' ', 'T').replace(/\+00$/, 'Z')).toISOString()).toBe('2024-03-01T10:00:00.123Z')
      expect(times[1]).toBeNull()
      expect(await roundTrip(['2024-02-29', null], 'date', true)).toEqual(['2024-02-29', null])
      expect(await roundTrip(['1250.50', -3.25, 0, '1e3', null], 'numeric', true)).toEqual(['1250.50', '-3.25', '0', '1000', null])
      expect(await roundTrip([1, -7, '42', null], 'integer')).toEqual([1, -7, 42, null])
      expect(await roundTrip([true, false, null], 'boolean')).toEqual([true, false, null])
    })
  })
}
