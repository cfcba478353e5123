/**
 * SQL for what a run records as it goes: per-object progress rows (counts, status, the read
 * checkpoint) and the issues of failed, skipped and warned records. Page writes call these inside
 * the transaction that writes the records, so counts, checkpoint and records never disagree.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { IssueKind, MigrationIssue, ObjectStatus, ReadCheckpoint, RecordCounts } from './migration.types.ts'

type Executor = Kysely<DB>

export interface ObjectRow extends ProgressDelta {
  object: string
  position: number
  phase: number
  target: string
  status: ObjectStatus
  status_reason: string | null
  total: number
  checkpoint: ReadCheckpoint
  records_per_second: number | null
  started_at: Date | null
  finished_at: Date | null
}

export interface NewObjectRow {
  object: string
  position: number
  phase: number
  target: string
  total: number
}

/** Creates the progress rows of a run; objects already present (a later phase, a resumed run) keep theirs. */
export async function insertObjects(db: Executor, orgId: string, migrationId: string, rows: NewObjectRow[]): Promise<void> {
  if (rows.length === 0) return
  await sql`
    INSERT INTO migration_objects (org_id, migration_id, object, position, phase, target, status, total)
    SELECT ${orgId}, ${migrationId}, x.object, x.position, x.phase, x.target, 'pending', x.total
    FROM json_to_recordset(CAST(${JSON.stringify(rows)} AS json)) AS x(object text, position int, phase int, target text, total bigint)
    ON CONFLICT (org_id, migration_id, object) DO NOTHING`.execute(db)
}

const OBJECT_COLUMNS = sql`object, position, phase, target, status, status_reason, total::float8 AS total, processed::float8 AS processed,
           created::float8 AS created, updated::float8 AS updated, linked::float8 AS linked, skipped::float8 AS skipped,
           failed::float8 AS failed, warnings::float8 AS warnings, checkpoint, records_per_second, started_at, finished_at`

export async function listObjects(db: Executor, orgId: string, migrationId: string): Promise<ObjectRow[]> {
  const r = await sql<ObjectRow>`
    SELECT ${OBJECT_COLUMNS}
    FROM migration_objects WHERE org_id = ${orgId} AND migration_id = ${migrationId}
    ORDER BY position`.execute(db)
  return r.rows
}

/** The objects of several migrations in one query (a page of the migrations list), by migration id. */
export async function listObjectsOfMigrations(db: Executor, orgId: string, migrationIds: readonly string[]): Promise<Map<string, ObjectRow[]>> {
  const byMigration = new Map<string, ObjectRow[]>(migrationIds.map((id) => [id, []]))
  if (migrationIds.length === 0) return byMigration
  const r = await sql<ObjectRow & { migration_id: string }>`
    SELECT migration_id, ${OBJECT_COLUMNS}
    FROM migration_objects WHERE org_id = ${orgId} AND migration_id = ANY (CAST(${migrationIds} AS uuid[]))
    ORDER BY migration_id, position`.execute(db)
  for (const { migration_id, ...row } of r.rows) byMigration.get(migration_id)!.push(row)
  return byMigration
}

/** A page's counts, added to its object's. */
export type ProgressDelta = RecordCounts

/** Adds a page's counts and stores where reading continues, in the page's transaction. */
export async function addProgress(db: Executor, orgId: string, migrationId: string, object: string, d: ProgressDelta, checkpoint: ReadCheckpoint, recordsPerSecond: number | null): Promise<void> {
  await sql`
    UPDATE migration_objects SET
      processed = processed + ${d.processed}, created = created + ${d.created}, updated = updated + ${d.updated},
      linked = linked + ${d.linked}, skipped = skipped + ${d.skipped}, failed = failed + ${d.failed},
      warnings = warnings + ${d.warnings}, checkpoint = CAST(${JSON.stringify(checkpoint)} AS jsonb),
      records_per_second = COALESCE(${recordsPerSecond}, records_per_second)
    WHERE org_id = ${orgId} AND migration_id = ${migrationId} AND object = ${object}`.execute(db)
}

/** Counts that do not come with a page (warnings of the re-link pass). */
export async function addWarnings(db: Executor, orgId: string, migrationId: string, object: string, warnings: number): Promise<void> {
  if (warnings === 0) return
  await sql`UPDATE migration_objects SET warnings = warnings + ${warnings}
            WHERE org_id = ${orgId} AND migration_id = ${migrationId} AND object = ${object}`.execute(db)
}

export async function setObjectState(
  db: Executor,
  orgId: string,
  migrationId: string,
  object: string,
  state: { status: ObjectStatus; reason?: string | null; total?: number; startedAt?: Date; finishedAt?: Date | null },
): Promise<void> {
  await sql`
    UPDATE migration_objects SET status = ${state.status},
      status_reason = ${state.reason ?? null},
      total = COALESCE(${state.total ?? null}, total),
      started_at = COALESCE(started_at, ${state.startedAt ?? null}),
      finished_at = ${state.finishedAt ?? null}
    WHERE org_id = ${orgId} AND migration_id = ${migrationId} AND object = ${object}`.execute(db)
}

export interface NewIssue {
  id: string
  object: string
  src_id: string | null
  kind: IssueKind
  code: string
  field?: string | null
  reason: string
  source_data: Record<string, unknown> | null
}

/**
 * Records issues; one per record and code (a page written again after a crash adds none). Returns
 * how many were new, so counts stay exact when a page is repeated.
 */
export async function insertIssues(db: Executor, orgId: string, migrationId: string, issues: NewIssue[], now: Date): Promise<number> {
  if (issues.length === 0) return 0
  const r = await sql<{ n: number }>`
    WITH ins AS (
      INSERT INTO migration_issues (org_id, migration_id, id, object, src_id, kind, code, field, reason, source_data, created_at)
      SELECT ${orgId}, ${migrationId}, x.id, x.object, x.src_id, x.kind, x.code, x.field, x.reason, x.source_data, ${now}
      FROM json_to_recordset(CAST(${JSON.stringify(issues)} AS json))
        AS x(id uuid, object text, src_id text, kind text, code text, field text, reason text, source_data jsonb)
      ON CONFLICT DO NOTHING
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM ins`.execute(db)
  return r.rows[0].n
}

/** An issue as stored: the API's shape with its time as a Date. */
export type IssueRow = Omit<MigrationIssue, 'created_at'> & { created_at: Date }

/** Oldest first (the order they happened in), keyset on the UUIDv7 id. */
export async function listIssues(
  db: Executor,
  orgId: string,
  migrationId: string,
  opts: { limit: number; cursor?: string; kind?: IssueKind; object?: string },
): Promise<IssueRow[]> {
  const r = await sql<IssueRow>`
    SELECT id, object, src_id, kind, code, field, reason, source_data, created_at FROM migration_issues
    WHERE org_id = ${orgId} AND migration_id = ${migrationId}
      ${opts.kind ? sql`AND kind = ${opts.kind}` : sql``}
      ${opts.object ? sql`AND object = ${opts.object}` : sql``}
      ${opts.cursor ? sql`AND id > ${opts.cursor}` : sql``}
    ORDER BY id LIMIT ${opts.limit + 1}`.execute(db)
  return r.rows
}
