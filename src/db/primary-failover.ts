/**
 * The connections to the primary when DATABASE_URL names one or more hosts: libpq's
 * `target_session_attrs=read-write`, which node-postgres lacks, done here. The pool connects to the
 * first host that answers `pg_is_in_recovery() = false`; when that server is lost (a connection
 * error, 57P01/57P02/57P03 shutdown, or 25006 because it now runs as a standby) the pool drops it and
 * looks for whichever host is read-write now, trying each in turn. Until it finds one, requests fail
 * at once with DatabaseUnavailable (503 with Retry-After) instead of waiting on a dead server.
 *
 * Nothing is retried here: a statement whose server was lost may or may not have committed, and
 * only the caller knows whether a retry is safe (Idempotency-Key on writes, docs/api.md).
 */
import type { PostgresPool } from 'kysely'
import pg from 'pg'
import { DatabaseUnavailable, isServerLost } from './database-unavailable.ts'
import { preparingPool } from './prepared-pool.ts'

/** How long a probe waits for a host to answer before trying the next. */
const PROBE_TIMEOUT_MS = 1000
/** The pause between two rounds over every host while none is read-write. */
const ROUND_PAUSE_MS = 200
/** How long opening waits for a read-write host before giving up (a service that starts with none). */
const OPEN_WAIT_MS = 15_000

interface Host {
  url: string
  pool: pg.Pool
  prepared: PostgresPool
}

export interface PrimaryConnections {
  /** For Kysely: connections to the current primary. */
  pool: PostgresPool
  /** The primary's URL now; null while looking for one. */
  currentUrl(): string | null
  /** Calls `listener` each time the pool settles on a (new) primary. */
  onSwitch(listener: (url: string) => void): void
  /** A multi-statement script on the current primary (migrations). */
  execScript(script: string): Promise<void>
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether `url` answers as a read-write server, within PROBE_TIMEOUT_MS. */
async function isReadWrite(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS })
  client.on('error', () => {})
  try {
    await client.connect()
    const { rows } = await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby')
    return rows[0]?.standby === false
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

export async function openPrimary(urls: readonly string[], options: { max: number; statement?: (text: string) => void }): Promise<PrimaryConnections> {
  let current: Host | null = null
  let finding: Promise<void> | null = null
  let closed = false
  let lastIndex = 0
  const listeners: ((url: string) => void)[] = []

  const connectTo = (url: string): Host => {
    const pool = new pg.Pool({ connectionString: url, max: options.max })
    // An idle connection can die (server restart, failover, an administrator's terminate). `pg`
    // reports that as an 'error' event on the pool, which would otherwise crash the process; the
    // pool has already dropped the connection, and the next checkout finds out whether the server is gone.
    pool.on('error', (err) => {
      console.warn(`PostgreSQL connection lost while idle (${(err as { code?: string }).code ?? err.message}); it will be replaced.`)
    })
    // A checked-out connection whose server goes away emits 'error' too, between statements, with
    // no listener of the pool's: unheard, it would crash the process. The statement in flight (or the
    // next) fails with the same error, which is what reports the loss (see `lost`).
    pool.on('connect', (client) => client.on('error', () => {}))
    const host: Host = { url, pool, prepared: null as unknown as PostgresPool }
    host.prepared = preparingPool(pool, {
      statement: options.statement,
      failed: (err) => (isServerLost(err) ? lost(host, err) : err),
    })
    return host
  }

  /** Drops `host` if it is still the current one, starts looking for the primary, and answers the error to throw. */
  const lost = (host: Host, cause: unknown): DatabaseUnavailable => {
    if (current === host) {
      current = null
      console.warn(`PostgreSQL primary ${new URL(host.url).host} lost (${(cause as { code?: string }).code ?? (cause as Error).message}); looking for the read-write host.`)
      void host.pool.end().catch(() => {})
      startFinding()
    }
    return cause instanceof DatabaseUnavailable ? cause : new DatabaseUnavailable('The database primary is unavailable; retry shortly.', { cause })
  }

  /** One round over the hosts, starting with the last primary's: the first read-write one becomes current. */
  const findOnce = async (): Promise<boolean> => {
    for (let i = 0; i < urls.length && !closed; i++) {
      const index = (lastIndex + i) % urls.length
      if (await isReadWrite(urls[index])) {
        if (closed) return false
        lastIndex = index
        current = connectTo(urls[index])
        for (const listener of listeners) listener(urls[index])
        return true
      }
    }
    return false
  }

  const startFinding = (): void => {
    finding ??= (async () => {
      while (!closed && !(await findOnce())) await sleep(ROUND_PAUSE_MS)
    })().finally(() => {
      finding = null
    })
  }

  const deadline = Date.now() + OPEN_WAIT_MS
  while (!(await findOnce())) {
    if (Date.now() > deadline) throw new Error(`No read-write PostgreSQL among ${urls.map((u) => new URL(u).host).join(', ')}`)
    await sleep(ROUND_PAUSE_MS)
  }

  const unavailable = () => new DatabaseUnavailable('The database primary is unavailable (failover under way); retry shortly.')
  return {
    pool: {
      async connect() {
        const host = current
        if (!host) {
          startFinding()
          throw unavailable()
        }
        try {
          return await host.prepared.connect()
        } catch (err) {
          throw isServerLost(err) ? lost(host, err) : err
        }
      },
      async end() {
        closed = true
        await current?.pool.end()
      },
      options: { max: options.max },
    },
    currentUrl: () => current?.url ?? null,
    onSwitch(listener) {
      listeners.push(listener)
    },
    async execScript(script) {
      const host = current
      if (!host) throw unavailable()
      await host.pool.query(script)
    },
    async close() {
      closed = true
      const host = current
      current = null
      await host?.pool.end()
    },
  }
}
