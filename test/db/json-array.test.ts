/**
 * The import sends each column of a page, and the keys of its lookups, as one JSON array
 * (json-array.ts). Every value must reach PostgreSQL exactly as it was: read back through each
 * column type the import writes, on both databases, with the values that need quoting or escaping.
 * The two characters PostgreSQL cannot store as text (NUL, lone surrogates) arrive as U+FFFD
 * instead of failing the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { jsonArray } from '../../src/db/json-array.ts'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'

const TEXTS = [
  'plain', '', ' ', '  padded  ', 'NULL', 'null', 'Null', 'NULLS', 'with, comma', '{braces}', 'a"quote', 'back\\slash', '\\"both\\"',
  'line\nbreak', 'tab\there', 'carriage\rreturn', 'ünïcödé ✓ 日本', '😀 emoji', "it's", 'x'.repeat(5000), '-', '+1', 'a@b.co', '00a5g0000012345AAA',
]

for (const target of await targets()) {
  describe(`JSON arrays on ${target}`, () => {
    let tdb: TestDatabase
    beforeAll(async () => {
      tdb = await createTestDatabase(target)
    })
    afterAll(() => tdb?.drop())

    const roundTrip = async <T>(values: unknown[], type: string, asText = false): Promise<T[]> => {
      // As the upsert reads them: element by element, cast to the column's type.
      const element = type === 'jsonb' ? sql`jsonb_array_elements(CAST(${jsonArray(values)} AS jsonb))` : sql`json_array_elements_text(CAST(${jsonArray(values)} AS json))`
      const value = type === 'jsonb' ? sql`e` : sql`CAST(e AS ${sql.raw(type)})`
      const r = await sql<{ v: T }>`SELECT ${asText ? sql`CAST(${value} AS text)` : value} AS v FROM ${element} WITH ORDINALITY AS x(e, n) ORDER BY n`.execute(tdb.database.db)
      return r.rows.map((row) => row.v)
    }

    it('keeps every text value, null and undefined as null', async () => {
      expect(await roundTrip([...TEXTS, null, undefined], 'text')).toEqual([...TEXTS, null, null])
    })

    it('keeps JSON documents (custom_fields) with quotes, backslashes and unicode', async () => {
      const docs = [{}, { a: 'x"y', b: 'back\\slash', c: [1, 'two', null], d: { e: 'ünï' } }, { 'key with space': 'NULL' }]
      const back = await roundTrip<unknown>(docs, 'jsonb')
      expect(back.map((d) => (typeof d === 'string' ? JSON.parse(d) : d))).toEqual(docs)
    })

    it('stores NUL characters and lone surrogates as U+FFFD, in columns and in custom fields, and keeps the rest', async () => {
      const texts = ['a\u0000b', 'lone \ud800 high', 'lone \udfff low', 'pair 😀 kept', 'escaped \\u0000 text', 'tab\t\u0001ctl']
      expect(await roundTrip(texts, 'text')).toEqual(['a\ufffdb', 'lone \ufffd high', 'lone \ufffd low', 'pair 😀 kept', 'escaped \\u0000 text', 'tab\t\u0001ctl'])
      const back = await roundTrip<unknown>([{ note: 'x\u0000y', nested: ['\ud83d'] }], 'jsonb')
      expect(back.map((d) => (typeof d === 'string' ? JSON.parse(d) : d))).toEqual([{ note: 'x\ufffdy', nested: ['\ufffd'] }])
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
