/**
 * The two databases every suite runs on: the embedded default (PGlite, in memory) and a real
 * PostgreSQL from TEST_DATABASE_URL, where each test file creates its own database and drops it after,
 * so parallel files and runs never collide. Both start from a migrated template (database-templates.ts).
 * With CI=true an unreachable PostgreSQL fails the run.
 */
import crypto from 'node:crypto'
import pg from 'pg'
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../src/db/database.ts'
import { openEmbedded, openPostgres, type Database } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { captureStatement } from './statement-capture.ts'
import { ensurePostgresTemplate, pgliteTemplate, withDatabase } from './database-templates.ts'

export type TargetName = 'pglite' | 'postgres'
export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test'
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL

let postgresReachable: Promise<boolean> | null = null
export function isPostgresReachable(): Promise<boolean> {
  postgresReachable ??= (async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl, connectionTimeoutMillis: 3000 })
    try {
      await client.connect()
      await client.query('SELECT 1')
      return true
    } catch {
      return false
    } finally {
      await client.end().catch(() => {})
    }
  })()
  return postgresReachable
}

/** The targets to run: both, or only PGlite when PostgreSQL is absent outside CI (said loudly). */
export async function targets(): Promise<TargetName[]> {
  if (await isPostgresReachable()) return ['pglite', 'postgres']
  if (process.env.CI === 'true') throw new Error(`CI=true and PostgreSQL is not reachable at ${testDatabaseUrl}`)
  console.warn(`PostgreSQL not reachable at ${testDatabaseUrl}: running on the embedded database only`)
  return ['pglite']
}

export interface TestDatabase {
  database: Database
  /** A postgres:// URL for child processes (PostgreSQL only). */
  url: string | null
  reset(): Promise<void>
  drop(): Promise<void>
}

/**
 * A database of its own on the test server. `migrated` clones the migrated template (see
 * database-templates.ts); without it the database is empty, for tests of migrating itself.
 */
export async function createPostgresDatabase(options: { migrated?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cairn_test_${crypto.randomBytes(6).toString('hex')}`
  const template = options.migrated ? await ensurePostgresTemplate(testDatabaseUrl) : null
  const admin = new pg.Client({ connectionString: testDatabaseUrl })
  await admin.connect()
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`)
        break
      } catch (err) {
        // 55006: someone is connected to the template (only while another process builds or checks it).
        if ((err as { code?: string }).code !== '55006' || attempt === 20) throw err
        await new Promise((r) => setTimeout(r, 100 * attempt))
      }
    }
  } finally {
    await admin.end()
  }
  return {
    url: withDatabase(testDatabaseUrl, name),
    async drop() {
      const c = new pg.Client({ connectionString: testDatabaseUrl })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

/** A migrated embedded database: in memory (`dataDir` null) or on a folder, started from the migrated dump. */
export async function openMigratedEmbedded(dataDir: string | null): Promise<Database> {
  return openEmbedded(dataDir, { loadDataDir: await pgliteTemplate() })
}

// Record tables, idempotency keys and the event journal are named: they do not reference
// organizations (migrations 0006, 0009 and 0023), so the cascade from organizations does not reach them.
const TENANT_TABLES = ['organizations', 'users', 'sign_in_failures', 'accounts', 'contacts', 'opportunities', 'leads', 'products', 'cases', 'case_comments', 'activities', 'idempotency_keys', 'imports', 'import_file_chunks', 'import_issues', 'events']

export async function createTestDatabase(target: TargetName): Promise<TestDatabase> {
  let database: Database
  let url: string | null = null
  let dropDb: () => Promise<void> = async () => {}
  if (target === 'postgres') {
    const created = await createPostgresDatabase({ migrated: true })
    url = created.url
    dropDb = created.drop
    // Every statement is captured for the Citus query rules check (citus-statement-check.setup.ts).
    database = await openPostgres(url, { observer: captureStatement })
  } else {
    database = await openMigratedEmbedded(null)
  }
  // Already migrated by the template: this only checks it (a no-op that fails on a stale template).
  await migrateToLatest(database)
  return {
    database,
    url,
    async reset() {
      // Everything else hangs off these (ON DELETE CASCADE or SET NULL), so this empties the tenant
      // data. DELETE, not TRUNCATE: a test leaves a few rows, and TRUNCATE ... CASCADE gives some 40
      // tables new files, 1.5-2.5 s a reset on either database under load against 0.1-0.3 s (it runs
      // before every test of an appPerFile file). The app's background pollers (webhook deliveries,
      // migrations) lock rows too; a deadlock with one fails one side, so try again.
      for (let attempt = 1; ; attempt++) {
        try {
          await database.db.transaction().execute(async (trx) => {
            for (const table of TENANT_TABLES) await sql`DELETE FROM ${sql.table(table)}`.execute(trx)
          })
          return
        } catch (err) {
          if ((err as { code?: string }).code !== '40P01' || attempt === 5) throw err
        }
      }
    },
    async drop() {
      await database.close()
      await dropDb()
    },
  }
}

/**
 * Tables that stay without statistics however many rows a test adds, as an import's own tables are
 * mid-run: tests of plans that must not depend on statistics (CI's PostgreSQL may run autovacuum).
 */
export async function neverAnalyzed(db: Kysely<DB>, tables: readonly string[]): Promise<void> {
  for (const table of tables) await sql`ALTER TABLE ${sql.table(table)} SET (autovacuum_enabled = false)`.execute(db)
}
