/**
 * SQL for the migration record: create, read, list, change (every change bumps `version`, which the
 * event stream watches), and the runner's leased claim. Every function takes the executor and the
 * organization first, except the claim, which looks across organizations for work.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { AnalysisReport, MigrationConfig, MigrationStatus, MigrationView, SourceEnvironment, SourceMetadata, ValidationRow } from './migration.types.ts'

type Executor = Kysely<DB>

/** The source's users and record types, kept from the analysis for the run. */
export interface SourceDirectory {
  users: SourceMetadata['users']
  record_types: SourceMetadata['record_types']
}

export interface MigrationRow {
  org_id: string
  id: string
  status: MigrationStatus
  status_reason: string | null
  environment: SourceEnvironment | null
  src_instance_url: string
  src_login_url: string | null
  source_org_id: string | null
  access_token_sealed: string | null
  refresh_token_sealed: string | null
  report: AnalysisReport | null
  summary: MigrationView['summary']
  source_directory: SourceDirectory | null
  config: MigrationConfig | null
  validation: ValidationRow[] | null
  phase_current: number | null
  phase_total: number | null
  created_by: string | null
  created_at: Date
  updated_at: Date
  analyzed_at: Date | null
  started_at: Date | null
  finished_at: Date | null
  resume_at: Date | null
  cancel_requested_at: Date | null
  lease_owner: string | null
  lease_until: Date | null
  version: number
}

const PLAIN = ['org_id', 'id', 'status', 'status_reason', 'environment', 'src_instance_url', 'src_login_url', 'source_org_id',
  'access_token_sealed', 'refresh_token_sealed', 'summary', 'config', 'validation', 'phase_current', 'phase_total', 'created_by',
  'created_at', 'updated_at', 'analyzed_at', 'started_at', 'finished_at', 'resume_at', 'cancel_requested_at', 'lease_owner', 'lease_until']

/** The columns of a MigrationRow, qualified by `alias`; `full` adds the large ones (report, source directory). */
function columns(alias: string, full: boolean) {
  const list = PLAIN.map((c) => `${alias}.${c}`)
  list.push(full ? `${alias}.report, ${alias}.source_directory` : 'NULL::jsonb AS report, NULL::jsonb AS source_directory', `${alias}.version::float8 AS version`)
  return sql.raw(list.join(', '))
}
/** Every column but the large ones, for lists and the event stream. */
const LIGHT_COLUMNS = columns('migrations', false)
const ALL_COLUMNS = columns('migrations', true)

export interface NewMigration {
  id: string
  environment: SourceEnvironment | null
  srcInstanceUrl: string
  srcLoginUrl: string | null
  accessTokenSealed: string
  refreshTokenSealed: string | null
  sourceOrgId: string | null
  createdBy: string | null
}

export async function insertMigration(db: Executor, orgId: string, m: NewMigration, now: Date): Promise<void> {
  await sql`
    INSERT INTO migrations (org_id, id, status, environment, src_instance_url, src_login_url, source_org_id,
                            access_token_sealed, refresh_token_sealed, created_by, created_at, updated_at)
    VALUES (${orgId}, ${m.id}, 'analyzing', ${m.environment}, ${m.srcInstanceUrl}, ${m.srcLoginUrl}, ${m.sourceOrgId},
            ${m.accessTokenSealed}, ${m.refreshTokenSealed}, ${m.createdBy}, ${now}, ${now})`.execute(db)
}

export async function findMigration(db: Executor, orgId: string, id: string, options: { full?: boolean; forUpdate?: boolean } = {}): Promise<MigrationRow | null> {
  const r = await sql<MigrationRow>`
    SELECT ${options.full ? ALL_COLUMNS : LIGHT_COLUMNS} FROM migrations
    WHERE org_id = ${orgId} AND id = ${id} ${options.forUpdate ? sql`FOR UPDATE` : sql``}`.execute(db)
  return r.rows[0] ?? null
}

/** The organization's migration importing now (running, or paused), other than `exceptId`. */
export async function importingMigration(db: Executor, orgId: string, exceptId: string): Promise<{ id: string; status: MigrationStatus } | null> {
  const r = await sql<{ id: string; status: MigrationStatus }>`
    SELECT id, status FROM migrations WHERE org_id = ${orgId} AND id <> ${exceptId} AND status IN ('running', 'paused') LIMIT 1`.execute(db)
  return r.rows[0] ?? null
}

/** Newest first, keyset on the UUIDv7 id like every list. */
export async function listMigrations(db: Executor, orgId: string, limit: number, cursor?: string): Promise<MigrationRow[]> {
  const r = await sql<MigrationRow>`
    SELECT ${LIGHT_COLUMNS} FROM migrations
    WHERE org_id = ${orgId} ${cursor ? sql`AND id < ${cursor}` : sql``}
    ORDER BY id DESC LIMIT ${limit + 1}`.execute(db)
  return r.rows
}

/** The version only: what the event stream polls. */
export async function migrationVersion(db: Executor, orgId: string, id: string): Promise<number | null> {
  const r = await sql<{ version: number }>`SELECT version::float8 AS version FROM migrations WHERE org_id = ${orgId} AND id = ${id}`.execute(db)
  return r.rows[0]?.version ?? null
}

/** The columns an update may set (updated_at and version move by themselves). */
export type MigrationPatch = Partial<
  Pick<
    MigrationRow,
    | 'status' | 'status_reason' | 'access_token_sealed' | 'refresh_token_sealed' | 'source_org_id' | 'report' | 'summary'
    | 'source_directory' | 'config' | 'validation' | 'phase_current' | 'phase_total' | 'analyzed_at' | 'started_at'
    | 'finished_at' | 'resume_at' | 'cancel_requested_at'
  >
>

const JSON_COLUMNS = new Set(['report', 'summary', 'source_directory', 'config', 'validation'])

function setList(patch: MigrationPatch, now: Date) {
  const sets = [sql`updated_at = ${now}`, sql`version = version + 1`]
  for (const [column, value] of Object.entries(patch)) {
    if (value === undefined) continue
    const v = JSON_COLUMNS.has(column) && value !== null ? sql`CAST(${JSON.stringify(value)} AS jsonb)` : sql`${value}`
    sets.push(sql`${sql.ref(column)} = ${v}`)
  }
  return sql.join(sets)
}

export async function updateMigration(db: Executor, orgId: string, id: string, patch: MigrationPatch, now: Date): Promise<void> {
  await sql`UPDATE migrations SET ${setList(patch, now)} WHERE org_id = ${orgId} AND id = ${id}`.execute(db)
}

/**
 * A change made by the process holding the claim: applied only while it still holds it, so a
 * process that lost its lease (paused too long, network partition) cannot overwrite the new owner.
 */
export async function updateClaimedMigration(db: Executor, orgId: string, id: string, owner: string, patch: MigrationPatch, now: Date): Promise<boolean> {
  const r = await sql`UPDATE migrations SET ${setList(patch, now)} WHERE org_id = ${orgId} AND id = ${id} AND lease_owner = ${owner}`.execute(db)
  return Number(r.numAffectedRows ?? 0) === 1
}

export async function touchMigration(db: Executor, orgId: string, id: string, now: Date): Promise<void> {
  await sql`UPDATE migrations SET version = version + 1, updated_at = ${now} WHERE org_id = ${orgId} AND id = ${id}`.execute(db)
}

/** A migration with work to do whose lease ran out (or never existed). */
const dueMigration = (now: Date) => sql`status IN ('analyzing', 'running', 'paused')
  AND (lease_until IS NULL OR lease_until < ${now})
  AND (status <> 'paused' OR resume_at IS NULL OR resume_at <= ${now})`

/** How many organizations one look considers; the rest wait for the next look. */
const DISCOVERY_LIMIT = 100

/**
 * Organizations with a migration to claim, a plain read without locks: on Citus one statement to
 * every shard (docs/scale-out.md, Query rules, allow-list), so the claim that follows locks rows of
 * one organization only.
 */
async function organizationsWithDueMigrations(db: Executor, now: Date): Promise<string[]> {
  const r = await sql<{ org_id: string }>`SELECT DISTINCT org_id FROM migrations WHERE ${dueMigration(now)} LIMIT ${DISCOVERY_LIMIT}`.execute(db)
  return r.rows.map((x) => x.org_id)
}

/**
 * Claims one migration with work to do whose lease ran out (or never existed): analyses, runs, and
 * paused runs whose recheck time has come. FOR UPDATE SKIP LOCKED lets any number of processes
 * claim at once without waiting on each other or taking the same one; each claim locks within one
 * organization.
 */
export async function claimMigration(db: Executor, owner: string, now: Date, leaseUntil: Date): Promise<MigrationRow | null> {
  for (const orgId of await organizationsWithDueMigrations(db, now)) {
    const m = await claimMigrationOf(db, orgId, owner, now, leaseUntil)
    if (m) return m
  }
  return null
}

async function claimMigrationOf(db: Executor, orgId: string, owner: string, now: Date, leaseUntil: Date): Promise<MigrationRow | null> {
  // The UPDATE's target comes first, so the statement takes its ROW EXCLUSIVE lock before the
  // subquery's ROW SHARE: upgrading from the weaker lock could deadlock against an ACCESS EXCLUSIVE
  // request queued in between (a schema migration's ALTER TABLE, a TRUNCATE).
  const r = await sql<MigrationRow>`
    UPDATE migrations m SET lease_owner = ${owner}, lease_until = ${leaseUntil}
    FROM (
      SELECT org_id, id FROM migrations
      WHERE org_id = ${orgId} AND ${dueMigration(now)}
      ORDER BY id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    ) due
    -- Joined through due, not pinned to orgId a second time: with m pinned the planner may scan m
    -- first and run due again for each row, each run claiming the next free row of the organization.
    WHERE m.org_id = due.org_id AND m.id = due.id
    RETURNING ${columns('m', true)}`.execute(db)
  return r.rows[0] ?? null
}

/** Extends the claim; false when another process holds it now (this one must stop working on it). */
export async function renewLease(db: Executor, orgId: string, id: string, owner: string, leaseUntil: Date): Promise<boolean> {
  const r = await sql`UPDATE migrations SET lease_until = ${leaseUntil} WHERE org_id = ${orgId} AND id = ${id} AND lease_owner = ${owner}`.execute(db)
  return Number(r.numAffectedRows ?? 0) === 1
}

export async function releaseLease(db: Executor, orgId: string, id: string, owner: string): Promise<void> {
  await sql`UPDATE migrations SET lease_owner = NULL, lease_until = NULL WHERE org_id = ${orgId} AND id = ${id} AND lease_owner = ${owner}`.execute(db)
}

/** The embedded database has one process: claims left by a previous run of it are void at start. */
export async function releaseAllLeases(db: Executor): Promise<void> {
  await sql`UPDATE migrations SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL`.execute(db)
}
