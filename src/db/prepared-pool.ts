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
import crypto from 'node:crypto'
import type pg from 'pg'
import type { PostgresPool, PostgresPoolClient } from 'kysely'

const MAX_PREPARED = 500
const MAX_TEXT = 16_000
const prepared = new WeakMap<pg.PoolClient, Set<string>>()
/** Per connection: statements whose prepared plan went stale (see above), run unnamed. */
const stale = new WeakMap<pg.PoolClient, Set<string>>()

/** PostgreSQL's refusal of a prepared statement whose tables changed shape (SQLSTATE 0A000). */
function isStalePlan(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null
  return e?.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan must not change result type')
}

// Hashing the text on every query showed in profiles; the same few texts repeat, so remember them.
const names = new Map<string, string>()
function statementName(text: string): string {
  let name = names.get(text)
  if (name === undefined) {
    name = `c_${crypto.createHash('sha1').update(text).digest('base64url')}`
    if (names.size < 5000) names.set(text, name)
  }
  return name
}

export function preparingPool(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect()
      let names = prepared.get(client)
      if (!names) prepared.set(client, (names = new Set()))
      const known = names
      let staleNames = stale.get(client)
      if (!staleNames) stale.set(client, (staleNames = new Set()))
      const unusable = staleNames
      return {
        query(text: string, values: unknown[]) {
          if (values.length === 0 || text.length > MAX_TEXT) return client.query(text, values)
          const name = statementName(text)
          if (unusable.has(name)) return client.query(text, values)
          if (!known.has(name)) {
            if (known.size >= MAX_PREPARED) return client.query(text, values)
            known.add(name)
          }
          return client.query({ name, text, values }).catch(async (err: unknown) => {
            if (!isStalePlan(err)) throw err
            unusable.add(name)
            // Outside a transaction the refusal changed nothing: run the statement again, unnamed.
            // Inside one, the transaction is aborted (25P02 on the retry): the caller gets the
            // original error, and its own retry runs unnamed.
            try {
              return await client.query(text, values)
            } catch (retryErr) {
              if ((retryErr as { code?: string }).code === '25P02') throw err
              throw retryErr
            }
          })
        },
        release() {
          client.release()
        },
      } as unknown as PostgresPoolClient
    },
    end: () => pool.end(),
    options: pool.options,
  }
}
