/**
 * Match keys: normalised values that say two records are the same party (a contact's or lead's
 * email, an account's domain or name), as deduplication compares them. Each SQL expression is the
 * expression of an index of migration 0005, so a lookup is an index scan, one probe per key
 * (db/each-key.ts); `normalize` computes the same key in JavaScript.
 */
import { sql } from 'kysely'
import { eachKey } from '../../db/each-key.ts'
import type { RecordKind } from '../record-kind.ts'
import type { Executor } from '../record.repository.ts'

export interface MatchKey {
  field: string
  sqlKey: string
  normalize(value: string): string
}

const squash = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase()
const lowerTrim = (s: string) => s.trim().toLowerCase()

export const MATCH_KEYS = {
  email: { field: 'email', sqlKey: 'lower(btrim(email))', normalize: lowerTrim },
  domain: { field: 'domain', sqlKey: 'lower(btrim(domain))', normalize: lowerTrim },
  name: { field: 'name', sqlKey: `lower(regexp_replace(btrim(name), '\\s+', ' ', 'g'))`, normalize: squash },
} as const satisfies Record<string, MatchKey>

/** key -> id of the earliest record of the kind whose match key equals it. */
export async function recordsByMatchKey(db: Executor, orgId: string, kind: RecordKind, key: MatchKey, keys: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  if (keys.length === 0) return found
  // OFFSET 0 keeps the matches a subquery of their own, found through the key's index, then
  // ordered: flattened, `ORDER BY id LIMIT 1` let the planner walk the primary key in id order and
  // test every row, a scan per key (a dedupe import on the embedded database fell to 78 rows/s).
  const r = await sql<{ k: string; id: string }>`
    SELECT w.k, d.id FROM ${eachKey(keys, 'text', 'd', (k) => sql`
      SELECT m.id FROM (
        SELECT id FROM ${sql.table(kind.table)}
        WHERE org_id = ${orgId} AND ${sql.ref(key.field)} IS NOT NULL AND ${sql.raw(key.sqlKey)} = ${k}
        OFFSET 0) AS m
      ORDER BY m.id`)}`.execute(db)
  for (const row of r.rows) found.set(row.k, row.id)
  return found
}

/**
 * Makes writers that deduplicate records of one kind in one organization take turns, until the
 * caller's transaction ends. A CSV import page deduplicating by email, domain or name (nothing
 * unique holds those) takes it before it looks its keys up, so a second import of the same keys at
 * the same time finds what the first created and updates it instead of creating it again. One
 * PostgreSQL advisory lock per organization and kind: such imports interleave page by page, and
 * the lock table holds one entry per transaction whatever the page's size.
 */
export async function takeDeduplicationTurn(db: Executor, orgId: string, kind: RecordKind): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('cairn.deduplication'), hashtext(${`${orgId}:${kind.name}`}))`.execute(db)
}
