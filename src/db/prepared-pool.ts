/**
 * A `pg` pool whose clients run parameterised statements as named prepared statements, so
 * PostgreSQL parses and plans each distinct statement once per connection instead of on every
 * request (the hot list and credential lookups repeat the same few texts). Names derive from the
 * statement text; each connection prepares at most MAX_PREPARED distinct texts, then runs the rest
 * unnamed, so statements built with varying shapes cannot grow the server's memory without bound.
 */
import crypto from 'node:crypto'
import type pg from 'pg'
import type { PostgresPool, PostgresPoolClient } from 'kysely'

const MAX_PREPARED = 500
const MAX_TEXT = 16_000
const prepared = new WeakMap<pg.PoolClient, Set<string>>()

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
      return {
        query(text: string, values: unknown[]) {
          if (values.length === 0 || text.length > MAX_TEXT) return client.query(text, values)
          const name = statementName(text)
          if (!known.has(name)) {
            if (known.size >= MAX_PREPARED) return client.query(text, values)
            known.add(name)
          }
          return client.query({ name, text, values })
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
