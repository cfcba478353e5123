/**
 * Named prepared statements survive a schema change made while the process runs (a rolling
 * deploy's migration): PostgreSQL refuses a prepared statement whose result type changed, and the
 * pool then runs that statement unnamed on that connection instead of failing it forever.
 * PostgreSQL only (the embedded database does not go through the preparing pool).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openPostgres, type Database } from '../../src/db/connect.ts'
import { createPostgresDatabase, isPostgresReachable } from '../helpers/databases.ts'

describe.runIf(await isPostgresReachable())('prepared statements across a schema change', () => {
  let database: Database
  let drop: () => Promise<void>
  beforeAll(async () => {
    const created = await createPostgresDatabase()
    drop = created.drop
    // One connection, so every query below meets the statements prepared on it.
    database = await openPostgres(created.url, { max: 1 })
    await database.execScript(`CREATE TABLE widgets (id int PRIMARY KEY, name text); INSERT INTO widgets VALUES (1, 'first')`)
  })
  afterAll(async () => {
    await database?.close()
    await drop?.()
  })

  const byId = (id: number) => sql<Record<string, unknown>>`SELECT * FROM widgets WHERE id = ${id}`.execute(database.db)

  it('answers with the new columns outside a transaction, without an error', async () => {
    expect((await byId(1)).rows).toEqual([{ id: 1, name: 'first' }])
    await database.execScript(`ALTER TABLE widgets ADD COLUMN colour text DEFAULT 'blue'`)
    expect((await byId(1)).rows).toEqual([{ id: 1, name: 'first', colour: 'blue' }])
    expect((await byId(1)).rows).toEqual([{ id: 1, name: 'first', colour: 'blue' }])
  })

  it('fails the transaction that met the stale plan with the real reason, and works after it', async () => {
    const named = (name: string) => sql<Record<string, unknown>>`SELECT * FROM widgets WHERE name = ${name}`.execute(database.db)
    expect((await named('first')).rows).toHaveLength(1)
    await database.execScript(`ALTER TABLE widgets ADD COLUMN size int DEFAULT 3`)
    await expect(database.db.transaction().execute((trx) => sql`SELECT * FROM widgets WHERE name = ${'first'}`.execute(trx))).rejects.toThrow(
      /cached plan must not change result type/,
    )
    expect((await named('first')).rows).toEqual([{ id: 1, name: 'first', colour: 'blue', size: 3 }])
  })
})
