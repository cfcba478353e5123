/**
 * The role of every table on a Citus cluster (docs/scale-out.md, "Table roles"): the one list that
 * `db distribute` follows, the Citus rules tests check the schema against, and the doc's table is
 * checked against. A new table needs a row here, or test/db/citus-schema-rules.test.ts fails.
 *
 * - distributed: sharded by `org_id`, all in one colocation group, so an organization's rows of
 *   every table live on one node and joins and foreign keys between them stay on that node.
 * - reference: one copy on every node (writes commit on all of them), for global rows that are
 *   looked up without an organization or referenced by global rows.
 * - local: only on the coordinator, never joined to shards: leases, counters and bookkeeping.
 *
 * Order matters: Citus needs a foreign key's target distributed before the table that holds the
 * key, so reference tables come first and each table follows the tables it references.
 */

export type TableRole = 'distributed' | 'reference' | 'local'

export interface TableRoleEntry {
  table: string
  role: TableRole
  /** Why this role, in one line (repeated in docs/scale-out.md). */
  why: string
}

/** The distribution column of every distributed table. */
export const DISTRIBUTION_COLUMN = 'org_id'

export const TABLE_ROLES: readonly TableRoleEntry[] = [
  { table: 'organizations', role: 'reference', why: 'the tenants, one small row each; global tables (users, memberships, clients, invitations) reference it, which a distributed table would forbid' },
  { table: 'users', role: 'reference', why: 'a person signs in across organizations, found by email without an organization' },
  { table: 'memberships', role: 'reference', why: 'a person lists their organizations by user id; sessions and OAuth grants reference it, and record owners (distributed) may reference a reference table' },
  { table: 'sessions', role: 'reference', why: 'a browser cookie is looked up by its hash alone, before the organization is known' },
  { table: 'invitations', role: 'reference', why: 'an invitation link is opened by its id alone, before sign-in; few rows' },
  { table: 'oauth_clients', role: 'reference', why: 'a client_id is global (dynamic registration, metadata documents) and resolved before any organization' },
  { table: 'oauth_grants', role: 'reference', why: 'tokens reference their grant; grants reference clients and memberships' },
  { table: 'oauth_codes', role: 'reference', why: 'an authorization code is redeemed by its hash alone' },
  { table: 'oauth_tokens', role: 'reference', why: 'a bearer or refresh token is resolved by its hash alone on every API request, without scanning shards' },
  { table: 'migration_oauth_states', role: 'reference', why: "the source platform's OAuth callback carries only the state" },
  { table: 'accounts', role: 'distributed', why: 'tenant records; the colocation anchor of every distributed table' },
  { table: 'contacts', role: 'distributed', why: 'tenant records' },
  { table: 'opportunities', role: 'distributed', why: 'tenant records' },
  { table: 'leads', role: 'distributed', why: 'tenant records' },
  { table: 'products', role: 'distributed', why: 'tenant records' },
  { table: 'cases', role: 'distributed', why: 'tenant records' },
  { table: 'case_comments', role: 'distributed', why: 'tenant records' },
  { table: 'activities', role: 'distributed', why: 'tenant records' },
  { table: 'record_tombstones', role: 'distributed', why: "deleted records' ids, written with the delete on the same shard" },
  { table: 'custom_field_definitions', role: 'distributed', why: 'per-organization schema of custom fields' },
  { table: 'picklist_options', role: 'distributed', why: 'per-organization options of the standard picklists, read with record writes' },
  { table: 'saved_views', role: 'distributed', why: 'per-organization saved list views' },
  { table: 'org_counters', role: 'distributed', why: 'per-organization counters (case numbers, event sequence) next to the rows they number' },
  { table: 'events', role: 'distributed', why: 'the per-organization journal, written in the same transaction as the records' },
  { table: 'idempotency_keys', role: 'distributed', why: 'keyed outcomes commit with the write on the same shard' },
  { table: 'oauth_client_access', role: 'distributed', why: "an organization's use of a client, always read and written with the organization" },
  { table: 'webhooks', role: 'distributed', why: 'endpoints per organization' },
  { table: 'webhook_deliveries', role: 'distributed', why: 'the outbox, written in the same statement as the events' },
  { table: 'webhook_attempts', role: 'distributed', why: 'the delivery log' },
  { table: 'webhook_replays', role: 'distributed', why: 'replays per endpoint' },
  { table: 'migrations', role: 'distributed', why: 'migrations from the source platform, per organization' },
  { table: 'migration_objects', role: 'distributed', why: 'progress of a migration' },
  { table: 'migration_issues', role: 'distributed', why: 'problems of a migration' },
  { table: 'migration_links', role: 'distributed', why: 'source id to Cairn id, per organization' },
  { table: 'migration_pending_refs', role: 'distributed', why: 'references a migration fills in later' },
  { table: 'imports', role: 'distributed', why: 'CSV imports per organization' },
  { table: 'import_file_chunks', role: 'distributed', why: 'the uploaded file, next to its import' },
  { table: 'import_issues', role: 'distributed', why: 'problems of an import' },
  { table: 'record_history', role: 'distributed', why: 'record changes kept for history and undo, written with the change on the same shard' },
  { table: 'operations', role: 'distributed', why: 'operations per organization, written with their changes' },
  { table: 'schema_migrations', role: 'local', why: 'which migration files ran; read by the process that migrates' },
  { table: 'service_keys', role: 'local', why: 'the stored encryption key; only service processes read it, through the coordinator' },
  { table: 'api_rate_leases', role: 'local', why: 'hot rate-limit leases: one place for all processes, no two-phase commit per request' },
  { table: 'rate_limit_counters', role: 'local', why: 'hot per-window counters, the same reason' },
  { table: 'sign_in_failures', role: 'local', why: 'sign-in throttling by address and email, before any organization' },
  { table: 'stream_slots', role: 'local', why: 'short leases of open streams, renewed for all organizations in one statement' },
  { table: 'read_positions', role: 'local', why: 'each credential\'s last write position for read-your-writes on replicas, read with the primary\'s own lookups' },
]

export function tablesWithRole(role: TableRole): string[] {
  return TABLE_ROLES.filter((t) => t.role === role).map((t) => t.table)
}

export function roleOf(table: string): TableRole | null {
  return TABLE_ROLES.find((t) => t.table === table)?.role ?? null
}
