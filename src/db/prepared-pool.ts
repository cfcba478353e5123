/**
 * A `pg` pool whose clients run parameterised statements as named prepared statements, so
 * PostgreSQL parses and plans each distinct statement once per connection instead of on every
 * request (the hot list and credential lookups repeat the same few texts). Names derive from the
 * statement text; each connection prepares at most MAX_PREPARED distinct texts, then runs the rest
 * unnamed, so statements built with varying shapes cannot grow the server's memory without bound.
 *
 * A prepared statement keeps the result type it was planned with. When a schema migration changes
 * a table it reads (a rolling deploy: new columns while older processes run), PostgreSQL refuses
 * it with "cached plan must not change result type" on every later use on that connection. Such a
 * statement runs unnamed on that connection from then on, so the process keeps working.
 */
import type pg from 'pg'
import type { PostgresPool, PostgresPoolClient } from 'kysely'
import { isStalePlan, nameToPrepare } from './statement-names.ts'

/**
 * A statement through `pg`'s callback form. `client.query` without a callback answers with a
 * promise of its own, and measured under load that form left each statement's Query, Result and
 * rows (a list page's whole text) to outlive two scavenges and be promoted: at 1,000 requests/s a
 * mark-compact every 0.65 s, 28 KB of old-space garbage a request, and p99 two to five times the
 * median. The same statement awaited through this promise promotes about 5% of that
 * (docs/benchmarks.md, "What a list request leaves to the major GC").
 */
function run(client: pg.PoolClient, config: pg.QueryConfig): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => client.query(config, (err: Error | null, res: pg.QueryResult) => (err ? reject(err) : resolve(res))))
}

/**
 * The client Kysely sees for one pooled connection. One per connection, not one per checkout:
 * Kysely keys its own connection object by this client, so a new one on every checkout made it
 * build and weakly map a new connection object per statement.
 */
function preparingClient(client: pg.PoolClient, hooks: PoolHooks): PostgresPoolClient {
  const known = new Set<string>()
  /** Statements whose prepared plan went stale on this connection (see above), run unnamed. */
  const unusable = new Set<string>()
  const { failed, statement } = hooks
  const query = (text: string, values: unknown[]): Promise<pg.QueryResult> => {
      const name = nameToPrepare(text, values.length, known, unusable)
      if (name === null) return run(client, { text, values })
      known.add(name)
      return run(client, { name, text, values }).catch(async (err: unknown) => {
        if (!isStalePlan(err)) throw err
        unusable.add(name)
        // Outside a transaction the refusal changed nothing: run the statement again, unnamed.
        // Inside one, the transaction is aborted (25P02 on the retry): the caller gets the
        // original error, and its own retry runs unnamed.
        try {
          return await run(client, { text, values })
        } catch (retryErr) {
          if ((retryErr as { code?: string }).code === '25P02') throw err
          throw retryErr
        }
      })
  }
  return {
    query: failed || statement
      ? (text: string, values: unknown[]) => {
          statement?.(text)
          return failed ? query(text, values).catch((err: unknown) => { throw failed(err) }) : query(text, values)
        }
      : query,
    // Kysely passes true for a connection it marked for discarding (a failed rollback): pg then closes it.
    release(discard?: boolean) {
      client.release(discard)
    },
  } as unknown as PostgresPoolClient
}

/** What the owner of a pool learns of its statements (src/db/primary-failover.ts, src/db/read-replicas.ts). */
export interface PoolHooks {
  /** Called with each statement's error; what it answers is thrown instead. */
  failed?: (err: unknown) => unknown
  /** Called with each statement's text before it runs. */
  statement?: (text: string) => void
}

export function preparingPool(pool: pg.Pool, hooks: PoolHooks = {}): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect()
      let preparing = clients.get(client)
      if (!preparing) clients.set(client, (preparing = preparingClient(client, hooks)))
      return preparing
    },
    end: () => pool.end(),
    options: pool.options,
  }
}
