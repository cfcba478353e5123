/**
 * SQL of CSV imports (migration 0021): the import row with its progress and its runner's leased
 * claim, the uploaded file's pieces, and the per-row issues. Every function takes the executor and
 * the organization first, except the claim and the clean-up, which look across organizations.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { ColumnMapping } from './header-mapping.ts'

type Executor = Kysely<DB>

export const IMPORT_STATUSES = ['queued', 'running', 'completed', 'completed_with_errors', 'failed'] as const
export type ImportStatus = (typeof IMPORT_STATUSES)[number]

export interface ImportRow {
  org_id: string
  id: string
  kind: string
  status: ImportStatus
  status_reason: string | null
  file_name: string | null
  file_bytes: number
  total_rows: number
  columns: string[]
  mapping: ColumnMapping
  dedupe_by: string | null
  created_by: string | null
  actor_scopes: string[]
  actor_role: 'admin' | 'member'
  actor_via: 'session' | 'bearer'
  actor_client_id: string | null
  processed: number
  created: number
  updated: number
  failed: number
  issue_count: number
  attempts: number
  created_at: Date
  updated_at: Date
  started_at: Date | null
  finished_at: Date | null
}

export type NewImport = Omit<ImportRow, 'processed' | 'created' | 'updated' | 'failed' | 'issue_count' | 'attempts' | 'started_at' | 'finished_at' | 'updated_at' | 'status' | 'status_reason'>

export interface ImportIssue {
  row_number: number
  column_name: string | null
  field: string | null
  message: string
}

const NAMES = ['org_id', 'id', 'kind', 'status', 'status_reason', 'file_name', 'file_bytes', 'total_rows', 'columns', 'mapping', 'dedupe_by',
  'created_by', 'actor_scopes', 'actor_role', 'actor_via', 'actor_client_id', 'processed', 'created', 'updated', 'failed', 'issue_count',
  'attempts', 'created_at', 'updated_at', 'started_at', 'finished_at']

/** An import's columns, qualified by `alias` (file_bytes is a bigint: read as a number). */
function columns(alias: string) {
  return sql.raw(NAMES.map((n) => (n === 'file_bytes' ? `${alias}.file_bytes::float8 AS file_bytes` : `${alias}.${n}`)).join(', '))
}
const COLUMNS = columns('imports')

export async function insertChunk(db: Executor, orgId: string, importId: string, seq: number, data: Buffer, now: Date): Promise<void> {
  await sql`INSERT INTO import_file_chunks (org_id, import_id, seq, data, created_at) VALUES (${orgId}, ${importId}, ${seq}, ${data}, ${now})`.execute(db)
}

export async function readChunk(db: Executor, orgId: string, importId: string, seq: number): Promise<Buffer | null> {
  const r = await sql<{ data: Uint8Array }>`SELECT data FROM import_file_chunks WHERE org_id = ${orgId} AND import_id = ${importId} AND seq = ${seq}`.execute(db)
  const data = r.rows[0]?.data
  return data ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : null
}

export async function deleteChunks(db: Executor, orgId: string, importId: string): Promise<void> {
  await sql`DELETE FROM import_file_chunks WHERE org_id = ${orgId} AND import_id = ${importId}`.execute(db)
}

/** Pieces of uploads that never became an import (refused, or their process died during the upload). */
export async function deleteAbandonedChunks(db: Executor, before: Date): Promise<void> {
  await sql`
    DELETE FROM import_file_chunks c WHERE c.created_at < ${before}
      AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.org_id = c.org_id AND i.id = c.import_id)`.execute(db)
}

export async function insertImport(db: Executor, row: NewImport): Promise<void> {
  await sql`
    INSERT INTO imports (org_id, id, kind, status, file_name, file_bytes, total_rows, columns, mapping, dedupe_by, created_by,
      actor_scopes, actor_role, actor_via, actor_client_id, created_at, updated_at)
    VALUES (${row.org_id}, ${row.id}, ${row.kind}, 'queued', ${row.file_name}, ${row.file_bytes}, ${row.total_rows},
      CAST(${JSON.stringify(row.columns)} AS jsonb), CAST(${JSON.stringify(row.mapping)} AS jsonb), ${row.dedupe_by}, ${row.created_by},
      CAST(${`{${row.actor_scopes.join(',')}}`} AS text[]), ${row.actor_role}, ${row.actor_via}, ${row.actor_client_id}, ${row.created_at}, ${row.created_at})`.execute(db)
}

export async function findImport(db: Executor, orgId: string, id: string): Promise<ImportRow | null> {
  const r = await sql<ImportRow>`SELECT ${COLUMNS} FROM imports WHERE org_id = ${orgId} AND id = ${id}`.execute(db)
  return r.rows[0] ?? null
}

/** The organization's imports, newest first, keyset-paged by id (UUIDv7: creation order). */
export async function listImports(db: Executor, orgId: string, opts: { limit: number; cursor?: string }): Promise<ImportRow[]> {
  const r = await sql<ImportRow>`
    SELECT ${COLUMNS} FROM imports WHERE org_id = ${orgId} ${opts.cursor ? sql`AND id < ${opts.cursor}` : sql``}
    ORDER BY id DESC LIMIT ${opts.limit + 1}`.execute(db)
  return r.rows
}

/**
 * The mapping of this person's last import of this kind in the organization (docs/imports.md,
 * "Remembered mappings"): what the app proposes again for the columns a new file shares with it.
 */
export async function lastMapping(db: Executor, orgId: string, userId: string, kind: string): Promise<{ id: string; mapping: ColumnMapping; created_at: Date } | null> {
  const r = await sql<{ id: string; mapping: ColumnMapping; created_at: Date }>`
    SELECT id, mapping, created_at FROM imports WHERE org_id = ${orgId} AND kind = ${kind} AND created_by = ${userId}
    ORDER BY created_at DESC, id DESC LIMIT 1`.execute(db)
  return r.rows[0] ?? null
}

/** An import with work to do whose lease is free. */
const dueImport = (now: Date) => sql`status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < ${now})`

/**
 * Organizations with an import whose lease is free, a plain read without locks: on Citus one
 * statement to every shard (docs/scale-out.md, Query rules, allow-list), so the claim that follows
 * locks rows of one organization only.
 */
async function organizationsWithDueImports(db: Executor, now: Date): Promise<string[]> {
  const r = await sql<{ org_id: string }>`SELECT DISTINCT org_id FROM imports WHERE ${dueImport(now)} LIMIT ${DISCOVERY_LIMIT}`.execute(db)
  return r.rows.map((x) => x.org_id)
}

/** How many organizations one look considers; the rest wait for the next look. */
const DISCOVERY_LIMIT = 100

/**
 * Claims one import with work to do whose lease is free: queued, or running under a claim that ran
 * out (its process died). FOR UPDATE SKIP LOCKED: two processes claiming at once take different
 * imports, never the same one. A run that had been claimed before counts an attempt. The claim
 * locks within one organization at a time, never across organizations.
 */
export async function claimImport(db: Executor, owner: string, now: Date, leaseUntil: Date): Promise<ImportRow | null> {
  for (const orgId of await organizationsWithDueImports(db, now)) {
    const row = await claimImportOf(db, orgId, owner, now, leaseUntil)
    if (row) return row
  }
  return null
}

async function claimImportOf(db: Executor, orgId: string, owner: string, now: Date, leaseUntil: Date): Promise<ImportRow | null> {
  // The UPDATE's target comes first, so the statement takes its ROW EXCLUSIVE lock before the
  // subquery's ROW SHARE (migration.repository.ts, claimMigration, says why).
  const r = await sql<ImportRow>`
    UPDATE imports m SET lease_owner = ${owner}, lease_until = ${leaseUntil},
      attempts = m.attempts + CASE WHEN m.status = 'running' THEN 1 ELSE 0 END
    FROM (
      SELECT org_id, id FROM imports
      WHERE org_id = ${orgId} AND ${dueImport(now)}
      ORDER BY id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    ) due
    -- Joined through due, not pinned to orgId a second time: with m pinned the planner may scan m
    -- first and run due again for each row, each run claiming the next free row of the organization.
    WHERE m.org_id = due.org_id AND m.id = due.id
    RETURNING ${columns('m')}`.execute(db)
  return r.rows[0] ?? null
}

/** Extends the claim; false when another process holds it now (this one must stop). */
export async function renewImportLease(db: Executor, orgId: string, id: string, owner: string, leaseUntil: Date): Promise<boolean> {
  const r = await sql`UPDATE imports SET lease_until = ${leaseUntil} WHERE org_id = ${orgId} AND id = ${id} AND lease_owner = ${owner}`.execute(db)
  return Number(r.numAffectedRows ?? 0) === 1
}

export async function releaseImportLease(db: Executor, orgId: string, id: string, owner: string): Promise<void> {
  await sql`UPDATE imports SET lease_owner = NULL, lease_until = NULL WHERE org_id = ${orgId} AND id = ${id} AND lease_owner = ${owner}`.execute(db)
}

/** The embedded database has one process: claims left by its previous run are void at start. */
export async function releaseAllImportLeases(db: Executor): Promise<void> {
  await sql`UPDATE imports SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL`.execute(db)
}

export async function markRunning(db: Executor, orgId: string, id: string, owner: string, now: Date): Promise<boolean> {
  const r = await sql`
    UPDATE imports SET status = 'running', started_at = COALESCE(started_at, ${now}), updated_at = ${now}
    WHERE org_id = ${orgId} AND id = ${id} AND lease_owner = ${owner}`.execute(db)
  return Number(r.numAffectedRows ?? 0) === 1
}

export interface ProgressDelta {
  processed: number
  created: number
  updated: number
  failed: number
  issues: number
}

/**
 * Adds a page's counts, in the page's own transaction: the rows written and the count of rows read
 * commit together, so a resumed job skips exactly the rows already done. False when this process no
 * longer holds the claim (the caller rolls the page back).
 */
export async function addProgress(trx: Executor, orgId: string, id: string, owner: string, d: ProgressDelta, now: Date): Promise<boolean> {
  const r = await sql`
    UPDATE imports SET processed = processed + ${d.processed}, created = created + ${d.created}, updated = updated + ${d.updated},
      failed = failed + ${d.failed}, issue_count = issue_count + ${d.issues}, updated_at = ${now}
    WHERE org_id = ${orgId} AND id = ${id} AND lease_owner = ${owner} AND status = 'running'`.execute(trx)
  return Number(r.numAffectedRows ?? 0) === 1
}

export async function insertIssues(trx: Executor, orgId: string, importId: string, issues: ReadonlyArray<ImportIssue & { ordinal: number }>): Promise<void> {
  if (issues.length === 0) return
  await sql`
    INSERT INTO import_issues (org_id, import_id, row_number, ordinal, column_name, field, message)
    SELECT ${orgId}, ${importId}, x.row_number, x.ordinal, x.column_name, x.field, x.message
    FROM json_to_recordset(CAST(${JSON.stringify(issues)} AS json)) AS x(row_number integer, ordinal integer, column_name text, field text, message text)`.execute(trx)
}

/** Ends the import (its file is no longer needed); false when another process holds the claim. */
export async function finishImport(db: Executor, orgId: string, id: string, owner: string, status: ImportStatus, reason: string | null, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await sql`
      UPDATE imports SET status = ${status}, status_reason = ${reason}, finished_at = ${now}, updated_at = ${now}, lease_owner = NULL, lease_until = NULL
      WHERE org_id = ${orgId} AND id = ${id} AND lease_owner = ${owner}`.execute(trx)
    if (Number(r.numAffectedRows ?? 0) !== 1) return false
    await deleteChunks(trx, orgId, id)
    return true
  })
}

/** Issues in file order, keyset-paged on (row_number, ordinal). */
export async function issuesAfter(db: Executor, orgId: string, importId: string, after: { row: number; ordinal: number } | null, limit: number): Promise<Array<ImportIssue & { ordinal: number }>> {
  const r = await sql<ImportIssue & { ordinal: number }>`
    SELECT row_number, ordinal, column_name, field, message FROM import_issues
    WHERE org_id = ${orgId} AND import_id = ${importId} ${after ? sql`AND (row_number, ordinal) > (${after.row}, ${after.ordinal})` : sql``}
    ORDER BY row_number, ordinal LIMIT ${limit}`.execute(db)
  return r.rows
}
