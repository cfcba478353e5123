/**
 * Named prepared statements survive a schema change made while the process runs (a rolling
 * deploy's migration): PostgreSQL refuses a prepared statement whose result type changed, and the
 * pool then runs that statement unnamed on that connection instead of failing it forever.
 * PostgreSQL only (the embedded database does not go through the preparing pool).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { Kysely, PostgresDialect, sql, type PostgresPoolClient } from 'kysely'
import { preparingPool } from '../../src/db/prepared-pool.ts'
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

describe.runIf(await isPostgresReachable())('the preparing pool’s clients', () => {
  let pool: pg.Pool
  let drop: () => Promise<void>
  beforeAll(async () => {
    const created = await createPostgresDatabase()
    drop = created.drop
    pool = new pg.Pool({ connectionString: created.url, max: 1 })
    // The database is dropped WITH (FORCE) after the last test, while pool.end() may still be
    // closing its connection: pg reports that termination as an error on the pool.
    pool.on('error', () => {})
  })
  afterAll(async () => {
    await pool?.end()
    await drop?.()
  })
  const backendPid = async (client: PostgresPoolClient) => Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid', [])).rows[0].pid)

  it('hands out one client per connection, so Kysely keeps one connection object for it', async () => {
    const preparing = preparingPool(pool)
    const first = await preparing.connect()
    const pid = await backendPid(first)
    first.release()
    const second = await preparing.connect()
    expect(second).toBe(first)
    expect(await backendPid(second)).toBe(pid)
    second.release()
  })

  it('closes a connection that Kysely releases as discarded, and opens a new one', async () => {
    const preparing = preparingPool(pool)
    const first = await preparing.connect()
    const pid = await backendPid(first)
    ;(first.release as (discard?: boolean) => void)(true)
    const second = await preparing.connect()
    expect(await backendPid(second)).not.toBe(pid)
    second.release()
  })

  it('answers named and unnamed statements with their rows and errors', async () => {
    const db = new Kysely<Record<string, never>>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) })
    for (let i = 0; i < 3; i++) expect((await sql<{ n: number }>`SELECT ${i}::int AS n`.execute(db)).rows).toEqual([{ n: i }])
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(db)).rows).toEqual([{ one: 1 }])
    await expect(sql`SELECT ${'x'}::int`.execute(db)).rejects.toThrow(/invalid input syntax for type integer/)
    expect((await sql<{ n: number }>`SELECT ${7}::int AS n`.execute(db)).rows).toEqual([{ n: 7 }])
  })
})
