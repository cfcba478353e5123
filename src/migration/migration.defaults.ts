/**
 * The migration's fixed choices in one place: import order and phases, what Configure starts from,
 * batch sizes and timings. Operator-tunable values live in config.ts; these are not meant to change
 * per deployment.
 */
import type { KindName } from '../records/contracts.ts'
import type { Compatibility, MigrationConfig, SupportLevel, SupportedObject } from './migration.types.ts'

export interface ImportStepDef {
  object: SupportedObject
  target: KindName
  /** Phase of a phased run (`accounts_contacts_first`): 1 = accounts and contacts, 2 = the rest. */
  phase: 1 | 2
  /** Comments are imported with their case: selecting Case selects them. */
  follows?: SupportedObject
}

/**
 * Dependency order (service-spec.md: accounts, then contacts, then cases with their comments, then
 * activities; the planned objects slot in where their references point: leads after contacts
 * (converted leads name an account and a contact), products and opportunities before cases, whose
 * activities may point at opportunities). A converted lead's opportunity is set by the re-link pass.
 */
export const IMPORT_ORDER: readonly ImportStepDef[] = [
  { object: 'Account', target: 'account', phase: 1 },
  { object: 'Contact', target: 'contact', phase: 1 },
  { object: 'Lead', target: 'lead', phase: 2 },
  { object: 'Product2', target: 'product', phase: 2 },
  { object: 'Opportunity', target: 'opportunity', phase: 2 },
  { object: 'Case', target: 'case', phase: 2 },
  { object: 'CaseComment', target: 'case_comment', phase: 2, follows: 'Case' },
  { object: 'Task', target: 'activity', phase: 2 },
  { object: 'Event', target: 'activity', phase: 2 },
]

export const STEP_BY_OBJECT: ReadonlyMap<string, ImportStepDef> = new Map(IMPORT_ORDER.map((s) => [s.object, s]))

/**
 * Ticked in Configure's defaults (the report's `default_selected`): every object with a place in
 * Cairn whose records the analysis found importable, `auto` or `partial`, leads, opportunities and
 * products included. `manual_review` (an unreadable object, or one whose required values cannot be
 * filled) is left for the administrator to look at; objects with no target cannot be selected.
 */
export function importableByDefault(support: SupportLevel, compatibility: Compatibility): boolean {
  return support !== 'none' && compatibility !== 'manual_review'
}

/** What Configure starts from: the objects `importableByDefault` ticks, deduplication by email, no webhooks. */
export function defaultConfig(automaticObjects: readonly string[]): MigrationConfig {
  return {
    objects: [...automaticObjects],
    field_overrides: {},
    relationships: { missing_parent: 'import_without_link', owners: 'match_by_email' },
    dedup: {
      accounts: { match_by: 'none', on_match: 'link' },
      contacts: { match_by: 'email', on_match: 'link' },
      leads: { match_by: 'email', on_match: 'link' },
    },
    phasing: 'all',
    emit_webhooks: false,
  }
}

/** Records read per REST page and written per transaction (the platform's largest query batch). */
export const PAGE_SIZE = 2000
/** Pages of one object written at the same time (bench/migration.ts: two keep two database cores busy). */
export const PAGES_IN_FLIGHT = 2
/**
 * How long a page's transaction waits for a row lock before it gives up. Pages commit in order, and
 * a later page waits in the service for the page ahead: if the page ahead waited for a row the later
 * page holds (a source sending one record in two pages), neither would ever finish, and PostgreSQL
 * cannot see that deadlock. A normal page waits milliseconds for a lock.
 */
export const PAGE_LOCK_TIMEOUT_MS = 60_000
/** Connect: how long the source platform's consent may take before the state expires. */
export const CONNECT_STATE_TTL_SECONDS = 15 * 60
/** How often an idle runner looks for claimable migrations (other processes' work, paused ones coming due). */
export const RUNNER_POLL_MS = 1000
/** How often the event stream looks for changes, and sends a comment to keep proxies from closing it. */
export const EVENTS_POLL_MS = 500
export const EVENTS_KEEPALIVE_MS = 15_000
/** Import speed the analysis' timeline assumes (records/s), from bench/migration.ts on this service. */
// 12,381 records/s measured end to end on 1M records (docs/benchmarks.md, Migration, 2026-11-24);
// rounded down, as a real source answers slower than the simulator on loopback.
export const ASSUMED_RECORDS_PER_SECOND = 10_000
