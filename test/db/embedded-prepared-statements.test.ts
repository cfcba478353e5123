/**
 * The embedded database runs statements with parameters as named prepared statements
 * (src/db/pglite-prepared.ts). They must answer exactly as PGlite's own `query` does (values
 * written and rows read by its serializers and parsers), keep errors with their SQLSTATE, stay out
 * of the way of statements without parameters, and work inside transactions that roll back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openEmbedded, type Database } from '../../src/db/connect.ts'
import { preparedStatementsOf } from '../../src/db/pglite-prepared.ts'
import { statementName } from '../../src/db/statement-names.ts'

describe('prepared statements on the embedded database', () => {
  let database: Database
  beforeAll(async () => {
    database = await openEmbedded(null)
    await database.execScript(`CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL, tags text[], body jsonb, seen timestamptz, hash bytea, price numeric(12,2))`)
  })
  afterAll(async () => {
    await database?.close()
  })

  const row = { id: 1, name: 'first', tags: ['a', 'b,c'], body: { x: [1, 2] }, seen: new Date('2026-11-26T10:00:00.123Z'), hash: Buffer.from([0, 1, 254, 255]), price: '12.50' }

  it('writes and reads every kind of value as PGlite’s query does', async () => {
    const prepared = preparedStatementsOf(database.pglite!)
    const insert = `INSERT INTO things (id, name, tags, body, seen, hash, price) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`
    const values = [row.id, row.name, row.tags, JSON.stringify(row.body), row.seen, row.hash, row.price]
    const inserted = await prepared.run(insert, values)
    expect(inserted?.affectedRows).toBe(1)
    const select = `SELECT * FROM things WHERE id = $1 AND name = $2 AND hash = $3`
    const ours = await prepared.run(select, [1, 'first', row.hash])
    const theirs = await database.pglite!.query(select, [1, 'first', row.hash], { rowMode: 'object' })
    expect(ours?.rows).toEqual(theirs.rows)
    expect(ours?.rows[0]).toMatchObject({ id: 1, name: 'first', tags: ['a', 'b,c'], body: { x: [1, 2] }, seen: row.seen, price: '12.50' })
    expect(Buffer.from(ours!.rows[0].hash as Uint8Array)).toEqual(row.hash)
    // A second run uses the statement prepared by the first.
    expect((await prepared.run(select, [1, 'first', row.hash]))?.rows).toEqual(theirs.rows)
    expect((await prepared.run(select, [2, 'first', row.hash]))?.rows).toEqual([])
  })

  it('leaves statements without parameters to the caller', async () => {
    const prepared = preparedStatementsOf(database.pglite!)
    expect(await prepared.run('SELECT 1', [])).toBeNull()
  })

  it('fails with the database’s error and code, and answers the next statement', async () => {
    const prepared = preparedStatementsOf(database.pglite!)
    const insert = `INSERT INTO things (id, name) VALUES ($1, $2)`
    await expect(prepared.run(insert, [1, 'again'])).rejects.toMatchObject({ code: '23505' })
    await expect(prepared.run(`SELECT $1::int AS n`, ['x'])).rejects.toMatchObject({ code: '22P02' })
    await expect(prepared.run(`SELEC $1`, [1])).rejects.toMatchObject({ code: '42601' })
    expect((await prepared.run(`SELECT $1::int AS n`, ['7']))?.rows).toEqual([{ n: 7 }])
  })

  it('runs inside a Kysely transaction and rolls back with it', async () => {
    const db = database.db
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`INSERT INTO things (id, name) VALUES (${2}, ${'second'})`.execute(trx)
        expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM things WHERE id = ${2}`.execute(trx)).rows).toEqual([{ n: 1 }])
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM things WHERE id = ${2}`.execute(db)).rows).toEqual([{ n: 0 }])
    await db.transaction().execute((trx) => sql`INSERT INTO things (id, name) VALUES (${3}, ${'third'})`.execute(trx))
    expect((await sql<{ name: string }>`SELECT name FROM things WHERE id = ${3}`.execute(db)).rows).toEqual([{ name: 'third' }])
  })

  it('reads an answer from its bytes exactly as PGlite’s query reads it: many chunks, multi-byte text, NULLs, repeated names', async () => {
    const prepared = preparedStatementsOf(database.pglite!)
    // About 300 KB, so it leaves WebAssembly memory in many chunks, with characters of 2 to 4 bytes
    // that a chunk boundary can split.
    const select = `SELECT g AS n, repeat($1, 40) AS text, NULL::int AS nothing, g % 2 = 0 AS even, timestamptz '2026-11-27 10:00:00+00' - make_interval(secs => g) AS at, g AS n
      FROM generate_series(1, $2::int) g`
    const values = ['Zoë €😀 ', 600]
    const ours = await prepared.run(select, values)
    const theirs = await database.pglite!.query(select, values, { rowMode: 'object' })
    expect(ours?.rows).toHaveLength(600)
    expect(ours?.rows).toEqual(theirs.rows)
    expect(ours?.fields).toEqual(theirs.fields)
    expect(ours?.rows[0]).toMatchObject({ n: 1, nothing: null, even: false, text: 'Zoë €😀 '.repeat(40) })
  })

  it('counts the rows a write changed, and throws the error PGlite’s query throws', async () => {
    const prepared = preparedStatementsOf(database.pglite!)
    await prepared.run(`INSERT INTO things (id, name) VALUES ($1, $2), ($3, $4)`, [10, 'ten', 11, 'eleven'])
    const updated = await prepared.run(`UPDATE things SET name = name || $1 WHERE id >= $2`, ['!', 10])
    expect(updated).toMatchObject({ affectedRows: 2, rowCount: 2, command: 'UPDATE', rows: [] })
    const duplicate = [`INSERT INTO things (id, name) VALUES ($1, $2)`, [10, 'again']] as const
    const ours = await prepared.run(duplicate[0], [...duplicate[1]]).catch((err: unknown) => err)
    const theirs = await database.pglite!.query(duplicate[0], [...duplicate[1]]).catch((err: unknown) => err)
    expect(ours).toBeInstanceOf(Error)
    const described = (e: any) => ({ name: e.constructor.name, message: e.message, code: e.code, constraint: e.constraint, detail: e.detail, table: e.table, schema: e.schema })
    expect(described(ours)).toEqual(described(theirs))
    expect(described(ours)).toMatchObject({ code: '23505', constraint: 'things_pkey', table: 'things' })
    expect((await prepared.run(`SELECT name FROM things WHERE id = $1`, [10]))?.rows).toEqual([{ name: 'ten!' }])
  })

  it('reports affected rows of updates through Kysely', async () => {
    const result = await database.db.updateTable('things' as never).set({ name: 'renamed' } as never).where('id' as never, '=', 1 as never).executeTakeFirst()
    expect(result.numUpdatedRows).toBe(1n)
  })
})

describe('a statement name already taken in the session', () => {
  it('is prepared again instead of refusing every run', async () => {
    const database = await openEmbedded(null)
    try {
      const text = `SELECT $1::int + 1 AS n`
      // The session already holds a statement of that name with another text (as after a preparation that failed half-way).
      await database.pglite!.query(`PREPARE "${statementName(text)}" (int) AS SELECT $1 * 100 AS n`)
      const prepared = preparedStatementsOf(database.pglite!)
      expect((await prepared.run(text, [1]))?.rows).toEqual([{ n: 2 }])
      expect((await prepared.run(text, [2]))?.rows).toEqual([{ n: 3 }])
    } finally {
      await database.close()
    }
  })
})
