/**
 * Writes one page of imported records of a kind as a single upsert keyed by (organization, src_id):
 * new source records are inserted with the ids minted for them, records imported before are updated
 * in place (same id, same created_at), so a re-run or a resumed run never duplicates anything.
 * Only the columns the mapping fills are written; custom_fields are merged (source keys win).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { FieldDef, RecordKind } from '../../records/record-kind.ts'
import { recordJsonText, SQL_TYPES } from '../../records/record-sql.ts'

type Executor = Kysely<DB>

export interface WriteRow {
  /** The id minted for the record (used when it is new). */
  id: string
  src_id: string
  created_at: Date
  /** Target column -> value, for the columns of the write. */
  fields: Record<string, unknown>
  custom_fields: Record<string, unknown>
}

export interface WrittenRow {
  src_id: string
  id: string
  inserted: boolean
  /** The record's JSON after the write, when asked for (webhook events). */
  json?: string
}

export interface WriteColumn {
  name: string
  sqlType: string
  /** Written on insert only (a case's number is kept when the case is imported again). */
  insertOnly?: boolean
}

export function columnsOf(kind: RecordKind, names: readonly string[]): WriteColumn[] {
  return names.map((name) => {
    const f: FieldDef | undefined = kind.fields.find((x) => x.name === name)
    if (!f) throw new Error(`${kind.name} has no field ${name}`)
    return { name, sqlType: SQL_TYPES[f.type] }
  })
}

const ident = (name: string) => sql.ref(name)

/**
 * The page as one array per column, for `unnest` (PostgreSQL parses typed arrays much faster than a
 * JSON document of rows: 9,000 -> 12,000 contact rows/s measured on the same rows).
 */
function columnArrays(columns: readonly WriteColumn[], rows: ReadonlyArray<{ fields: Record<string, unknown> }>): unknown[][] {
  return columns.map((c) => rows.map((r) => r.fields[c.name] ?? null))
}

export async function upsertRows(
  db: Executor,
  orgId: string,
  kind: RecordKind,
  columns: readonly WriteColumn[],
  rows: readonly WriteRow[],
  now: Date,
  options: { returnJson?: boolean } = {},
): Promise<WrittenRow[]> {
  if (rows.length === 0) return []
  const arrays = [
    sql`CAST(${rows.map((r) => r.id)} AS uuid[])`,
    sql`CAST(${rows.map((r) => r.src_id)} AS text[])`,
    sql`CAST(${rows.map((r) => r.created_at.toISOString())} AS timestamptz[])`,
    sql`CAST(${rows.map((r) => JSON.stringify(r.custom_fields))} AS jsonb[])`,
    ...columnArrays(columns, rows).map((values, i) => sql`CAST(${values} AS ${sql.raw(columns[i].sqlType)}[])`),
  ]
  const aliases = [sql`id`, sql`src_id`, sql`created_at`, sql`custom_fields`, ...columns.map((c) => ident(c.name))]
  const updates: RawBuilder<unknown>[] = [
    sql`custom_fields = r.custom_fields || EXCLUDED.custom_fields`,
    sql`updated_at = EXCLUDED.updated_at`,
  ]
  for (const c of columns) if (!c.insertOnly) updates.push(sql`${ident(c.name)} = EXCLUDED.${ident(c.name)}`)
  const names = columns.map((c) => ident(c.name))
  const selected = columns.map((c) => sql`x.${ident(c.name)}`)
  const res = await sql<WrittenRow>`
    INSERT INTO ${sql.raw(kind.table)} AS r (org_id, id, created_at, updated_at, src_id, custom_fields${names.length ? sql`, ${sql.join(names)}` : sql``})
    SELECT ${orgId}, x.id, x.created_at, ${now}, x.src_id, x.custom_fields${selected.length ? sql`, ${sql.join(selected)}` : sql``}
    FROM unnest(${sql.join(arrays)}) AS x(${sql.join(aliases)})
    ON CONFLICT (org_id, src_id) WHERE src_id IS NOT NULL DO UPDATE SET ${sql.join(updates)}
    RETURNING r.src_id, r.id, (r.xmax = 0) AS inserted${options.returnJson ? sql`, ${sql.raw(recordJsonText(kind, 'r'))} AS json` : sql``}`.execute(db)
  return res.rows
}

/** Writes the source's values onto records that already existed (deduplication `update`), by id. */
export async function updateExisting(
  db: Executor,
  orgId: string,
  kind: RecordKind,
  columns: readonly WriteColumn[],
  rows: ReadonlyArray<{ id: string; src_id: string; fields: Record<string, unknown>; custom_fields: Record<string, unknown> }>,
  now: Date,
): Promise<void> {
  if (rows.length === 0) return
  const payload = rows.map((r) => {
    const o: Record<string, unknown> = { id: r.id, src_id: r.src_id, custom_fields: r.custom_fields }
    for (const c of columns) o[c.name] = r.fields[c.name] ?? null
    return o
  })
  const recordSet: RawBuilder<unknown>[] = [sql`id uuid`, sql`src_id text`, sql`custom_fields jsonb`]
  for (const c of columns) recordSet.push(sql`${ident(c.name)} ${sql.raw(c.sqlType)}`)
  const sets: RawBuilder<unknown>[] = [
    sql`custom_fields = r.custom_fields || COALESCE(x.custom_fields, '{}'::jsonb)`,
    sql`updated_at = ${now}`,
    // The record takes the source id unless it already carries one (then a link records the match).
    sql`src_id = COALESCE(r.src_id, x.src_id)`,
  ]
  for (const c of columns) if (!c.insertOnly) sets.push(sql`${ident(c.name)} = x.${ident(c.name)}`)
  await sql`
    UPDATE ${sql.raw(kind.table)} AS r SET ${sql.join(sets)}
    FROM json_to_recordset(CAST(${JSON.stringify(payload)} AS json)) AS x(${sql.join(recordSet)})
    WHERE r.org_id = ${orgId} AND r.id = x.id`.execute(db)
}
