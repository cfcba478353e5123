/**
 * Deduplication rules of Configure: a source record that is new here (not imported before, not
 * linked) and whose match key (a contact's or lead's email, an account's domain or name; records'
 * bulk/match-keys.ts) matches a record of the organization, or an earlier new record of the same
 * page, is linked to it, updates it, or is created anyway, as the rule says.
 */
import { recordBulk } from '../../records/index.ts'
import type { Executor, MatchKey } from '../../records/index.ts'
import type { KindName, RecordKind } from '../../records/contracts.ts'
import type { DedupAction, MigrationConfig } from '../migration.types.ts'

export interface DedupRule extends MatchKey {
  action: DedupAction
  /** How the match is described in the record's issue ("email", "domain"). */
  describe: string
}

/** The rule configured for a kind, or null when it has none. */
export function dedupRuleFor(kind: KindName, config: MigrationConfig): DedupRule | null {
  const d = config.dedup
  if (kind === 'contact' && d.contacts.match_by === 'email') return { ...recordBulk.MATCH_KEYS.email, action: d.contacts.on_match, describe: 'email' }
  if (kind === 'lead' && d.leads.match_by === 'email') return { ...recordBulk.MATCH_KEYS.email, action: d.leads.on_match, describe: 'email' }
  if (kind === 'account' && d.accounts.match_by === 'domain') return { ...recordBulk.MATCH_KEYS.domain, action: d.accounts.on_match, describe: 'domain' }
  if (kind === 'account' && d.accounts.match_by === 'name') return { ...recordBulk.MATCH_KEYS.name, action: d.accounts.on_match, describe: 'name' }
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
  // The earliest matching record of each key (one index probe per key).
  const existing = await recordBulk.recordsByMatchKey(db, orgId, kind, rule, [...new Set(keys.filter((k): k is string => k !== null))])
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
