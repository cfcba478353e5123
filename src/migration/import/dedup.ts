/**
 * Deduplication rules of Configure: a source record that is new here (not imported before, not
 * linked) and whose normalised key (a contact's or lead's email, an account's domain or name)
 * matches a record of the organization, or an earlier new record of the same page, is linked to it,
 * updates it, or is created anyway, as the rule says. The SQL key expressions are those of the
 * expression indexes in migration 0005, so the lookups are index scans.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { KindName, RecordKind } from '../../records/record-kind.ts'
import type { DedupAction, MigrationConfig } from '../migration.types.ts'
import { eachKey } from '../../db/each-key.ts'

type Executor = Kysely<DB>

export interface DedupRule {
  field: string
  /** The key of a value, as the SQL expression computes it. */
  normalize(value: string): string
  sqlKey: string
  action: DedupAction
  /** How the match is described in the record's issue ("email", "domain"). */
  describe: string
}

const squash = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase()
const lowerTrim = (s: string) => s.trim().toLowerCase()

/** The rule configured for a kind, or null when it has none. */
export function dedupRuleFor(kind: KindName, config: MigrationConfig): DedupRule | null {
  const d = config.dedup
  if (kind === 'contact' && d.contacts.match_by === 'email') return { field: 'email', normalize: lowerTrim, sqlKey: 'lower(btrim(email))', action: d.contacts.on_match, describe: 'email' }
  if (kind === 'lead' && d.leads.match_by === 'email') return { field: 'email', normalize: lowerTrim, sqlKey: 'lower(btrim(email))', action: d.leads.on_match, describe: 'email' }
  if (kind === 'account' && d.accounts.match_by === 'domain') return { field: 'domain', normalize: lowerTrim, sqlKey: 'lower(btrim(domain))', action: d.accounts.on_match, describe: 'domain' }
  if (kind === 'account' && d.accounts.match_by === 'name') return { field: 'name', normalize: squash, sqlKey: `lower(regexp_replace(btrim(name), '\\s+', ' ', 'g'))`, action: d.accounts.on_match, describe: 'name' }
  return null
}

export type DedupDecision =
  /** `key`: the candidate's normalized key (null: no value), which its record now claims. */
  | { match: false; key: string | null }
  /**
   * `existingId`: the record matched; `inPage`: it is another new record of this page, not yet
   * written. A record of a page ahead not yet committed counts as existing.
   */
  | { match: true; existingId: string; inPage: boolean; key: string }

/**
 * Decides for each candidate (new source records, in page order) whether it matches a record in
 * the database, one that a page ahead creates (`ahead`: key -> id, pages not yet committed), or an
 * earlier candidate. Candidates without a value for the rule's field never match.
 */
export async function findDuplicates(
  db: Executor,
  orgId: string,
  kind: RecordKind,
  rule: DedupRule,
  candidates: ReadonlyArray<{ id: string; value: unknown }>,
  ahead: ReadonlyMap<string, string> = new Map(),
): Promise<DedupDecision[]> {
  const keys = candidates.map((c) => (typeof c.value === 'string' && c.value.trim() !== '' ? rule.normalize(c.value) : null))
  const wanted = [...new Set(keys.filter((k): k is string => k !== null))]
  const existing = new Map<string, string>()
  if (wanted.length) {
    // One index probe per key (each-key.ts), the earliest matching record each.
    const r = await sql<{ k: string; id: string }>`
      SELECT w.k, d.id FROM ${eachKey(wanted, 'text', 'd', (k) => sql`
        SELECT id FROM ${sql.table(kind.table)}
        WHERE org_id = ${orgId} AND ${sql.ref(rule.field)} IS NOT NULL AND ${sql.raw(rule.sqlKey)} = ${k}
        ORDER BY id`)}`.execute(db)
    for (const row of r.rows) existing.set(row.k, row.id)
  }
  const firstInPage = new Map<string, string>()
  return candidates.map((c, i) => {
    const key = keys[i]
    if (key === null) return { match: false, key }
    const found = existing.get(key) ?? ahead.get(key)
    if (found) return { match: true, existingId: found, inPage: false, key }
    const earlier = firstInPage.get(key)
    if (earlier) return { match: true, existingId: earlier, inPage: true, key }
    firstInPage.set(key, c.id)
    return { match: false, key }
  })
}

/** Records the link of a source record to the record it matched, so references to it resolve there. */
export async function insertLinks(db: Executor, orgId: string, migrationId: string, kind: KindName, links: ReadonlyArray<{ src_id: string; record_id: string }>, now: Date): Promise<void> {
  if (links.length === 0) return
  await sql`
    INSERT INTO migration_links (org_id, kind, src_id, record_id, migration_id, created_at)
    SELECT ${orgId}, ${kind}, x.src_id, x.record_id, ${migrationId}, ${now}
    FROM json_to_recordset(CAST(${JSON.stringify(links)} AS json)) AS x(src_id text, record_id uuid)
    ON CONFLICT (org_id, kind, src_id) DO UPDATE SET record_id = EXCLUDED.record_id, migration_id = EXCLUDED.migration_id`.execute(db)
}
