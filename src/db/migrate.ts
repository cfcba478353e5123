/**
 * Applies the numbered SQL files in db/migrations/ in order, each once, each in its own transaction.
 * Boot, the CLI's `db migrate` and the tests all call this one function. On PostgreSQL an advisory
 * lock keeps two starting processes from migrating at once.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import type { Database } from './connect.ts'

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')
const LOCK_KEY = 0x6361_6972 // "cair"

interface MigrationFile {
  version: number
  name: string
  file: string
}

export function listMigrationFiles(): MigrationFile[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f.replace(/\.sql$/, ''), file: path.join(MIGRATIONS_DIR, f) }))
}

export async function migrateToLatest(database: Database): Promise<{ applied: string[] }> {
  const { db } = database
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`.execute(db)
  const applied: string[] = []
  const run = async () => {
    const done = new Set((await db.selectFrom('schema_migrations').select('version').execute()).map((r) => r.version))
    const files = listMigrationFiles()
    const newest = Math.max(0, ...done)
    for (const m of files) {
      if (done.has(m.version)) continue
      // Migrations are frozen in time: a new file that sorts before an applied one is a merge mistake.
      if (m.version < newest) throw new Error(`Migration ${m.name} sorts before the applied ${newest}; renumber it`)
      const script = fs.readFileSync(m.file, 'utf8')
      await database.execScript(
        `BEGIN;\n${script}\n;INSERT INTO schema_migrations (version, name) VALUES (${m.version}, '${m.name}');\nCOMMIT;`,
      )
      applied.push(m.name)
    }
  }
  if (database.kind === 'postgres') {
    await db.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(${LOCK_KEY})`.execute(conn)
      try {
        await run()
      } finally {
        await sql`SELECT pg_advisory_unlock(${LOCK_KEY})`.execute(conn)
      }
    })
  } else {
    await run()
  }
  return { applied }
}
