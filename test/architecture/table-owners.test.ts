/**
 * Each capability's SQL names only its own tables, where a table has one owner
 * (docs/architecture.md, "Doors"): read from the source files, as `grep` would. Another
 * capability reaches those tables through the owner's door or a port the owner implements
 * (records' SourceAliases, which migration implements over migration_links). Tables every
 * capability shares (organizations, users, memberships, org_counters) have no single owner and
 * are not checked.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
const SRC = path.join(ROOT, 'src')
const MIGRATIONS = path.join(SRC, 'db', 'migrations')

/** Table -> the capability (top folder under src/) whose code alone names it in SQL. */
function ownerOf(table: string): string | null {
  if (/^migrations?(_|$)/.test(table)) return 'migration'
  if (/^webhooks?(_|$)/.test(table)) return 'webhooks'
  if (/^oauth_/.test(table)) return 'oauth'
  if (/^imports?(_|$)/.test(table)) return 'imports'
  if (['accounts', 'contacts', 'leads', 'opportunities', 'cases', 'case_comments', 'activities', 'products', 'record_tombstones', 'custom_field_definitions', 'picklist_options'].includes(table)) return 'records'
  if (table === 'saved_views') return 'views'
  if (table === 'events' || table === 'record_history' || table === 'operations') return 'events'
  return null
}
/** Readers allowed besides the owner, each with its reason. */
const ALSO_READ_BY: Record<string, string[]> = {
  // Webhooks subscribe to the journal: a thin delivery reads its event's number (delivery.repository.ts).
  events: ['webhooks'],
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return p === MIGRATIONS ? [] : filesUnder(p)
    return e.name.endsWith('.ts') ? [p] : []
  })
}

/** The tables created by the numbered migrations. */
function tables(): string[] {
  const out = new Set<string>()
  for (const f of fs.readdirSync(MIGRATIONS).filter((n) => n.endsWith('.sql'))) {
    for (const m of fs.readFileSync(path.join(MIGRATIONS, f), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/g)) out.add(m[1])
  }
  return [...out]
}

/** The tables a file names in SQL: in sql`...` templates, and in Kysely's builder calls. */
function tablesNamedIn(text: string, known: Set<string>): Set<string> {
  const found = new Set<string>()
  for (const m of text.matchAll(/\bsql(?:<[^`]*?>)?`([^`]*)`/gs)) {
    for (const x of m[1].matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE|EXISTS)\s+([a-z_]+)/gi)) if (known.has(x[1])) found.add(x[1])
  }
  for (const x of text.matchAll(/\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|table)\(\s*['"]([a-z_]+)/g)) if (known.has(x[1])) found.add(x[1])
  return found
}

describe('table owners', () => {
  const known = new Set(tables())
  const topOf = (p: string) => path.relative(SRC, p).split(path.sep)[0]

  it('reads the tables from the migrations and finds SQL in the sources', () => {
    expect(known.has('migration_links')).toBe(true)
    expect(known.has('webhook_deliveries')).toBe(true)
    // The scan must see SQL where it is: migration's own file names its table.
    expect([...tablesNamedIn(fs.readFileSync(path.join(SRC, 'migration/import/source-links.ts'), 'utf8'), known)]).toContain('migration_links')
    expect([...tablesNamedIn('const q = sql`SELECT 1 FROM webhook_deliveries d`', known)]).toEqual(['webhook_deliveries'])
    expect([...tablesNamedIn("db.selectFrom('oauth_tokens')", known)]).toEqual(['oauth_tokens'])
  })

  it('no capability names in SQL a table another capability owns', () => {
    const broken: string[] = []
    for (const file of filesUnder(SRC)) {
      const own = topOf(file)
      for (const table of tablesNamedIn(fs.readFileSync(file, 'utf8'), known)) {
        const owner = ownerOf(table)
        if (owner && owner !== own && !(ALSO_READ_BY[table] ?? []).includes(own)) broken.push(`${path.relative(ROOT, file)} names ${table} (${owner}'s)`)
      }
    }
    expect(broken).toEqual([])
  })

  it('records does not mention migration_links at all, not even in a comment', () => {
    const mentions = filesUnder(path.join(SRC, 'records')).filter((f) => fs.readFileSync(f, 'utf8').includes('migration_links'))
    expect(mentions.map((f) => path.relative(ROOT, f))).toEqual([])
  })
})
