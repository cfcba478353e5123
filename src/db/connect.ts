/**
 * Opens the one SQL layer (Kysely) on either PostgreSQL (`DATABASE_URL`) or the embedded default
 * (PGlite on a data folder), and knows how to close each cleanly.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { SerializedPGliteDialect } from './pglite-dialect.ts'
import { preparingPool } from './prepared-pool.ts'
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts'
import type { DB } from './database.ts'

export type DatabaseKind = 'postgres' | 'pglite'

export interface Database {
  kind: DatabaseKind
  db: Kysely<DB>
  /** Runs a multi-statement SQL script (migrations): `pg` and PGlite need different calls for it. */
  execScript(script: string): Promise<void>
  /** The raw handle of the embedded database, for what Kysely cannot do (benchmarks, tests). */
  pglite: PGlite | null
  connectionString: string | null
  /**
   * Calls `onNotify` for every NOTIFY on `channel` (sent at commit). A wake-up signal only: a lost
   * notification must never lose work, so listeners also poll.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

// node-postgres returns int8 as string; counts are cast to int in SQL, so keep the default.
// Dates stay Date objects; numeric stays a string (exact decimals).

/**
 * Connections per service process, sized for the two cores the service is deployed on: with 32
 * concurrent bearer lists on such a machine (docs/benchmarks.md, Records list endpoint), 8 reached
 * the throughput of 10 and 16 and beat 4 (by ~20%) and 2 (~35%); more connections only queue in
 * PostgreSQL instead of in the pool, each with a backend's memory.
 */
const POOL_SIZE = 8

export async function openPostgres(connectionString: string, options: { max?: number } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: options.max ?? POOL_SIZE })
  // An idle connection can die (server restart, failover, an administrator's terminate). `pg`
  // reports that as an 'error' event on the pool, which would otherwise crash the process; the
  // pool has already dropped the connection and opens a new one on demand.
  pool.on('error', (err) => {
    console.warn(`PostgreSQL connection lost while idle (${(err as { code?: string }).code ?? err.message}); it will be replaced.`)
  })
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) })
  return {
    kind: 'postgres',
    db,
    pglite: null,
    connectionString,
    async execScript(script) {
      await pool.query(script)
    },
    listen: (channel, onNotify) => listenPostgres(connectionString, channel, onNotify),
    async close() {
      await db.destroy()
    },
  }
}

/** A dedicated connection that LISTENs, reconnecting after errors until stopped. */
async function listenPostgres(connectionString: string, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  let stopped = false
  let client: pg.Client | null = null
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString })
    c.on('notification', (msg) => {
      if (msg.channel === channel) onNotify()
    })
    c.on('error', () => {
      client = null
      c.end().catch(() => {})
      if (!stopped) setTimeout(() => void connect().catch(() => {}), 1000).unref()
    })
    await c.connect()
    await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
    if (stopped) await c.end()
    else client = c
  }
  await connect()
  return async () => {
    stopped = true
    await client?.end().catch(() => {})
  }
}

/**
 * `loadDataDir` starts the database from a dumped data directory (PGlite's `dumpDataDir`) instead of
 * an empty one: the tests migrate once and start every database from that dump (test/helpers).
 */
export async function openEmbedded(dataDir: string | null, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  let lock: DataDirLock | null = null
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true })
    // PGlite has no lock of its own: two processes on one folder silently lose writes.
    lock = acquireDataDirLock(dataDir)
  }
  let pglite: PGlite
  try {
    // Record search's indexes need these two (migration 0015); PGlite loads an extension only when
    // it is named here, before CREATE EXTENSION can find it.
    const extensions = { pg_trgm, btree_gin }
    const loadDataDir = options.loadDataDir
    pglite = await PGlite.create(dataDir ? { dataDir: path.join(dataDir, 'pgdata'), extensions, loadDataDir } : { extensions, loadDataDir })
  } catch (err) {
    lock?.release()
    throw err
  }
  const db = new Kysely<DB>({ dialect: new SerializedPGliteDialect({ pglite }) })
  return {
    kind: 'pglite',
    db,
    pglite,
    connectionString: null,
    async execScript(script) {
      await pglite.exec(script)
    },
    async listen(channel, onNotify) {
      const unsubscribe = await pglite.listen(channel, onNotify)
      return async () => {
        if (!pglite.closed) await unsubscribe()
      }
    },
    async close() {
      try {
        await db.destroy() // closes the PGlite instance, which otherwise keeps the process alive
        if (!pglite.closed) await pglite.close()
      } finally {
        lock?.release()
      }
    },
  }
}

export async function openDatabase(config: { databaseUrl: string | null; dataDir: string }): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openEmbedded(config.dataDir)
}
