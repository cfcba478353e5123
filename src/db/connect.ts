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
import { hostUrls } from './host-list.ts'
import { openPrimary } from './primary-failover.ts'
import { ReadReplicas, type ReplicaOptions } from './read-replicas.ts'
import { markIfWriting } from './read-scope.ts'
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts'
import type { DB } from './database.ts'

export type DatabaseKind = 'postgres' | 'pglite'

export interface Database {
  kind: DatabaseKind
  db: Kysely<DB>
  /**
   * For reads that may be served by a streaming replica (lists, counts, search, export, the feed,
   * MCP reads): single statements outside transactions only. Without DATABASE_READ_URLS it is `db`.
   */
  readDb: Kysely<DB>
  /** The replicas behind `readDb` and their health; null without DATABASE_READ_URLS. */
  replicas: ReadReplicas | null
  /** Runs a multi-statement SQL script (migrations): `pg` and PGlite need different calls for it. */
  execScript(script: string): Promise<void>
  /** The raw handle of the embedded database, for what Kysely cannot do (benchmarks, tests). */
  pglite: PGlite | null
  /** As configured: one host, or several in libpq's form (src/db/host-list.ts). */
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

export interface PostgresOptions {
  max?: number
  /** Streaming replicas for `readDb` (DATABASE_READ_URLS), with their lag bound and check interval. */
  readUrls?: readonly string[]
  replicas?: Omit<ReplicaOptions, 'max'>
  /**
   * Sees the text of every statement sent to the primary before it runs. Tests use it to check each
   * statement the service sends against Citus's query rules (docs/scale-out.md, Query rules); the
   * service passes none.
   */
  observer?: (text: string) => void
}

/** Default replica lag bound and check interval, as src/config.ts documents them. */
const REPLICA_DEFAULTS = { maxLagSeconds: 10, checkIntervalMs: 1000 }

/**
 * PostgreSQL: `connection` names the primary (one host, or several: the pool connects to whichever
 * is read-write, src/db/primary-failover.ts), or a list of single-host URLs.
 */
export async function openPostgres(connection: string | readonly string[], options: PostgresOptions = {}): Promise<Database> {
  const urls = typeof connection === 'string' ? hostUrls(connection) : connection
  const readUrls = options.readUrls ?? []
  const seers = [readUrls.length > 0 ? markIfWriting : undefined, options.observer].filter((s) => s !== undefined)
  const statement = seers.length === 0 ? undefined : (text: string) => seers.forEach((see) => see(text))
  const primary = await openPrimary(urls, { max: options.max ?? POOL_SIZE, statement })
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: primary.pool }) })
  let readDb = db
  let replicas: ReadReplicas | null = null
  if (readUrls.length > 0) {
    const readers = new ReadReplicas(readUrls, db, { ...REPLICA_DEFAULTS, ...options.replicas, max: options.max ?? POOL_SIZE })
    replicas = readers
    primary.onSwitch(() => void readers.primarySwitched())
    await readers.start()
    // The routing pool ends the replicas' pools; the primary's pool is ended by `db`.
    readDb = new Kysely<DB>({ dialect: new PostgresDialect({ pool: readers.routingPool({ connect: () => primary.pool.connect(), end: async () => {}, options: primary.pool.options }) }) })
  }
  return {
    kind: 'postgres',
    db,
    readDb,
    replicas,
    pglite: null,
    connectionString: typeof connection === 'string' ? connection : connection.join(','),
    execScript: (script) => primary.execScript(script),
    listen: (channel, onNotify) => listenPostgres(() => primary.currentUrl(), channel, onNotify),
    async close() {
      if (readDb !== db) await readDb.destroy()
      await db.destroy()
    },
  }
}

/** A dedicated connection that LISTENs, reconnecting after errors until stopped. */
async function listenPostgres(currentUrl: () => string | null, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  let stopped = false
  let client: pg.Client | null = null
  // After a failover the primary is another host: each attempt connects to the current one.
  const retry = () => {
    if (!stopped) setTimeout(() => void connect().catch(retry), 1000).unref()
  }
  const connect = async (): Promise<void> => {
    const connectionString = currentUrl()
    if (connectionString === null) throw new Error('no primary yet')
    const c = new pg.Client({ connectionString })
    c.on('notification', (msg) => {
      if (msg.channel === channel) onNotify()
    })
    c.on('error', () => {
      client = null
      c.end().catch(() => {})
      retry()
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
    readDb: db,
    replicas: null,
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

export async function openDatabase(config: {
  databaseUrl: string | null
  dataDir: string
  databaseReadUrls?: readonly string[]
  readReplicaMaxLagSeconds?: number
  readReplicaCheckIntervalMs?: number
}): Promise<Database> {
  if (!config.databaseUrl) return openEmbedded(config.dataDir)
  return openPostgres(config.databaseUrl, {
    readUrls: config.databaseReadUrls,
    replicas: { maxLagSeconds: config.readReplicaMaxLagSeconds ?? REPLICA_DEFAULTS.maxLagSeconds, checkIntervalMs: config.readReplicaCheckIntervalMs ?? REPLICA_DEFAULTS.checkIntervalMs },
  })
}
