/**
 * Streaming replicas for reads (DATABASE_READ_URLS). A request's reads through `readDb` go to a
 * replica only when that replica has replayed the WAL past its caller's last write; otherwise to
 * the primary. So a write followed by a read never reads stale data, whichever process serves each.
 *
 * - Read-your-writes: after an unsafe request wrote, the HTTP layer records the primary's WAL insert
 *   position for its credential in `read_positions` (an unlogged table on the primary, migration
 *   0030), so every service process sees it. A routed read looks the position up once (one primary
 *   index lookup a request) and compares it with the replica's replay position.
 * - Health: every check interval each replica is asked for `pg_last_wal_replay_lsn()` and its lag;
 *   one that is down, lags past READ_REPLICA_MAX_LAG_SECONDS or is no longer a standby leaves the
 *   rotation, and comes back at the first good check. The cached replay position only lags the
 *   real one, so comparing with it can only send a read to the primary needlessly, never stale.
 * - A read that fails on a replica (server lost) runs again on the primary: no failed request.
 * - After a primary switch, the new primary's WAL position becomes a floor every replica must pass
 *   (the positions table is unlogged: it starts empty on a promoted server).
 */
import type { Kysely, PostgresPool, PostgresPoolClient } from 'kysely'
import { sql } from 'kysely'
import pg from 'pg'
import type { DB } from './database.ts'
import { isServerLost } from './database-unavailable.ts'
import { preparingPool } from './prepared-pool.ts'
import { readScopes, type ReadScope } from './read-scope.ts'
import { walPosition } from './wal-position.ts'

export interface ReplicaOptions {
  maxLagSeconds: number
  checkIntervalMs: number
  /** Connections per replica. */
  max: number
}

export interface ReplicaState {
  host: string
  inRotation: boolean
  /** Replay position at the last check (pg_lsn text), null when unknown. */
  replayed: string | null
  lagSeconds: number | null
  error: string | null
}

interface Replica {
  url: string
  pool: pg.Pool
  prepared: PostgresPool
  inRotation: boolean
  replayed: bigint
  replayedText: string | null
  lagSeconds: number | null
  error: string | null
}

/** A replica that takes longer than this to answer its health check leaves the rotation. */
const HEALTH_TIMEOUT_MS = 2000

const HEALTH_SQL = `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed,
  CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
       ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END::float8 AS lag`

export class ReadReplicas {
  private readonly replicas: Replica[]
  private next = 0
  private floor = 0n
  private timer: NodeJS.Timeout | null = null
  private checking = false
  private readonly retriers = new WeakMap<PostgresPoolClient, PostgresPoolClient>()

  private readonly primary: Kysely<DB>
  private readonly options: ReplicaOptions

  constructor(urls: readonly string[], primary: Kysely<DB>, options: ReplicaOptions) {
    this.primary = primary
    this.options = options
    this.replicas = urls.map((url) => {
      const pool = new pg.Pool({ connectionString: url, max: options.max, connectionTimeoutMillis: 1000 })
      // A replica connection lost, idle or checked out: the failed read retries on the primary and the
      // health check takes the replica out; unheard, the 'error' event would crash the process.
      pool.on('error', () => {})
      pool.on('connect', (client) => client.on('error', () => {}))
      return { url, pool, prepared: preparingPool(pool), inRotation: false, replayed: 0n, replayedText: null, lagSeconds: null, error: null }
    })
  }

  /** Checks every replica once (so a healthy one serves from the first request), then every interval. */
  async start(): Promise<void> {
    await this.checkAll()
    this.timer = setInterval(() => void this.checkAll(), this.options.checkIntervalMs)
    this.timer.unref()
  }

  async checkAll(): Promise<void> {
    // A check still waiting on a slow replica is not stacked on by the next tick.
    if (this.checking) return
    this.checking = true
    try {
      await Promise.all(this.replicas.map((r) => this.check(r)))
    } finally {
      this.checking = false
    }
  }

  private async check(replica: Replica): Promise<void> {
    try {
      const { rows } = await replica.pool.query<{ standby: boolean; replayed: string | null; lag: number }>({ text: HEALTH_SQL, query_timeout: HEALTH_TIMEOUT_MS } as pg.QueryConfig)
      const row = rows[0]
      replica.replayedText = row.replayed
      const replayed = walPosition(row.replayed)
      if (replayed > replica.replayed) replica.replayed = replayed
      replica.lagSeconds = row.lag
      replica.error = !row.standby ? 'not a standby (promoted?)' : row.lag > this.options.maxLagSeconds ? `lags ${row.lag.toFixed(1)} s` : null
    } catch (err) {
      replica.error = (err as Error).message || String(err)
    }
    this.setRotation(replica, replica.error === null)
  }

  private setRotation(replica: Replica, inRotation: boolean): void {
    if (replica.inRotation === inRotation) return
    replica.inRotation = inRotation
    const host = new URL(replica.url).host
    if (inRotation) console.warn(`Read replica ${host} is back in rotation.`)
    else console.warn(`Read replica ${host} left the rotation: ${replica.error ?? 'unknown'}.`)
  }

  /** Called when the primary changed: replicas must pass the new primary's position before serving. */
  async primarySwitched(): Promise<void> {
    try {
      const { rows } = await sql<{ lsn: string }>`SELECT pg_current_wal_insert_lsn()::text AS lsn`.execute(this.primary)
      const lsn = walPosition(rows[0]?.lsn)
      if (lsn > this.floor) this.floor = lsn
    } catch {
      // Unknown yet: no replica serves until the position is read, which is tried again shortly.
      this.floor = BigInt('0xFFFFFFFFFFFFFFFF')
      setTimeout(() => void this.primarySwitched(), 1000).unref()
    }
  }

  /** Records, for read-your-writes, that `credential` wrote: the primary's WAL insert position now. */
  async recordWrite(credential: string): Promise<void> {
    await sql`INSERT INTO read_positions (credential, lsn, updated_at) VALUES (${credential}, pg_current_wal_insert_lsn(), now())
      ON CONFLICT (credential) DO UPDATE SET lsn = GREATEST(read_positions.lsn, EXCLUDED.lsn), updated_at = EXCLUDED.updated_at`.execute(this.primary)
  }

  /** The position a replica must have replayed to serve `scope`'s caller: its last write, at least the floor. */
  async requiredFor(scope: ReadScope): Promise<bigint> {
    if (scope.required !== undefined) return scope.required
    const credential = scope.credential()
    let required = this.floor
    if (credential !== null) {
      const { rows } = await sql<{ lsn: string }>`SELECT lsn::text AS lsn FROM read_positions WHERE credential = ${credential}`.execute(this.primary)
      const written = walPosition(rows[0]?.lsn)
      if (written > required) required = written
    }
    scope.required = required
    return required
  }

  /** A replica in rotation that has replayed `required`, in turn; null: none has. */
  private pick(required: bigint): Replica | null {
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length]
      if (replica.inRotation && replica.replayed >= required) {
        this.next = (this.next + i + 1) % this.replicas.length
        return replica
      }
    }
    return null
  }

  private anyInRotation(): boolean {
    return this.replicas.some((r) => r.inRotation && r.replayed >= this.floor)
  }

  /** The pool of `readDb`: a replica's connection when the request's caller may read there, else the primary's. */
  routingPool(primary: PostgresPool): PostgresPool {
    return {
      connect: async () => {
        const scope = readScopes.getStore()
        if (!scope || scope.wrote || !this.anyInRotation()) return primary.connect()
        const replica = this.pick(await this.requiredFor(scope))
        if (!replica) return primary.connect()
        let client: PostgresPoolClient
        try {
          client = await replica.prepared.connect()
        } catch (err) {
          this.lost(replica, err)
          return primary.connect()
        }
        return this.retrying(client, replica, primary)
      },
      end: async () => {
        if (this.timer) clearInterval(this.timer)
        await Promise.all(this.replicas.map((r) => r.pool.end().catch(() => {})))
        await primary.end()
      },
      options: primary.options,
    }
  }

  /** A replica's client whose statements run again on the primary when the replica is lost mid-read. */
  private retrying(client: PostgresPoolClient, replica: Replica, primary: PostgresPool): PostgresPoolClient {
    let wrapped = this.retriers.get(client)
    if (wrapped) return wrapped
    wrapped = {
      query: (async (text: string, values: unknown[]) => {
        try {
          return await (client.query as (t: string, v: unknown[]) => Promise<unknown>)(text, values)
        } catch (err) {
          if (!isServerLost(err)) throw err
          this.lost(replica, err)
          const fallback = await primary.connect()
          try {
            return await (fallback.query as (t: string, v: unknown[]) => Promise<unknown>)(text, values)
          } finally {
            fallback.release()
          }
        }
      }) as PostgresPoolClient['query'],
      release: (...args: unknown[]) => (client.release as (...a: unknown[]) => void)(...args),
    } as PostgresPoolClient
    this.retriers.set(client, wrapped)
    return wrapped
  }

  private lost(replica: Replica, err: unknown): void {
    replica.error = (err as Error).message || String(err)
    this.setRotation(replica, false)
  }

  state(): ReplicaState[] {
    return this.replicas.map((r) => ({ host: new URL(r.url).host, inRotation: r.inRotation, replayed: r.replayedText, lagSeconds: r.lagSeconds, error: r.error }))
  }

  /** Forgets positions no replica in rotation can still be behind (older than ten lag bounds, at least an hour). */
  async prunePositions(now: Date): Promise<void> {
    const keepSeconds = Math.max(3600, this.options.maxLagSeconds * 10)
    await sql`DELETE FROM read_positions WHERE updated_at < ${new Date(now.getTime() - keepSeconds * 1000).toISOString()}::timestamptz`.execute(this.primary)
  }
}
