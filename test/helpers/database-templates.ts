/**
 * Migrated starting points for test databases, made once and cloned by every test file: a PostgreSQL
 * template database (`CREATE DATABASE ... TEMPLATE`) and a dump of a migrated PGlite data directory.
 * Migrating per file cost 1-3 s on PostgreSQL and 4-8 s on PGlite (mostly initdb); cloning costs a
 * fraction of that. Both are named by a hash of the migration files (and the PGlite version), so a
 * template made before a migration changed is never used.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openEmbedded, openPostgres } from '../../src/db/connect.ts'
import { listMigrationFiles, migrateToLatest } from '../../src/db/migrate.ts'

// Held while one process builds the PostgreSQL template, so parallel workers wait instead of racing.
const TEMPLATE_LOCK_KEY = 0x6361_6974 // "cait"

function pgliteVersion(): string {
  // Its package.json is not exported, so it is read from where the package is installed.
  const file = path.resolve(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json')
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version
}

let hash: string | null = null
/** Changes whenever a migration file is added, renamed or edited, or PGlite is upgraded. */
export function migrationsHash(): string {
  if (hash) return hash
  const h = crypto.createHash('sha256')
  h.update(`pglite ${pgliteVersion()}\n`)
  for (const m of listMigrationFiles()) h.update(`${m.name}\n`).update(fs.readFileSync(m.file))
  hash = h.digest('hex').slice(0, 12)
  return hash
}

export function postgresTemplateName(): string {
  return `cairn_tpl_${migrationsHash()}`
}

export function pgliteTemplatePath(): string {
  return path.join(os.tmpdir(), `cairn-test-pglite-${migrationsHash()}.tgz`)
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.href
}

/** Creates the migrated template database on the server of `adminUrl` unless it exists. */
export async function ensurePostgresTemplate(adminUrl: string): Promise<string> {
  const name = postgresTemplateName()
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    const exists = async () => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1
    if (await exists()) return name
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY])
    try {
      if (await exists()) return name
      // Built under another name and renamed when complete: a run killed midway leaves no half template.
      const building = `cairn_tplwip_${crypto.randomBytes(4).toString('hex')}`
      await admin.query(`CREATE DATABASE ${building}`)
      try {
        const database = await openPostgres(withDatabase(adminUrl, building))
        try {
          await migrateToLatest(database)
        } finally {
          await database.close()
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`)
      } catch (err) {
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)
        throw err
      }
      return name
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY])
    }
  } finally {
    await admin.end()
  }
}

/** Writes the dump of a migrated PGlite unless it exists; returns its path. */
export async function ensurePgliteTemplate(): Promise<string> {
  const file = pgliteTemplatePath()
  if (fs.existsSync(file)) return file
  const database = await openEmbedded(null)
  try {
    await migrateToLatest(database)
    const dump = await database.pglite!.dumpDataDir('gzip')
    // Written aside and renamed: a reader never sees half a file, and two writers both write whole ones.
    const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
    fs.renameSync(partial, file)
  } finally {
    await database.close()
  }
  return file
}

let pgliteDump: Promise<Blob> | null = null
/** The migrated PGlite dump, read once per process. */
export function pgliteTemplate(): Promise<Blob> {
  pgliteDump ??= ensurePgliteTemplate().then((file) => new Blob([fs.readFileSync(file)]))
  return pgliteDump
}
