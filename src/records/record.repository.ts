/**
 * SQL for any record kind. Every function takes the executor (the pool or the caller's transaction)
 * and the organization id first: a query without the tenant cannot be written by accident.
 */
import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely'
import type { DB } from '../db/database.ts'
import type { FieldDef, RecordKind } from './record-kind.ts'
import { castValue, jsonbValue, mergedCustomFields, recordJsonText, withoutNulls } from './record-sql.ts'
import type { ListField, ListSort, RangeOp } from './list-params.ts'
import { listConditions, sortedPageSql, type Param } from './list-sql.ts'
import { isKnownPosition } from './record-tombstones.ts'
import { deleteRecords, type Deletion } from './record-deletion.ts'
import type { CustomFilter } from './custom-fields/custom-filters.ts'

export type Executor = Kysely<DB>

/** A page as JSON text, built without parsing the records in Node. */
export interface PageText {
  json: string
  count: number
}

export interface ListOptions {
  limit: number
  cursor?: string
  /** Absent: the kind's order (newest first; comments oldest first), i.e. by id. */
  sort?: ListSort
  /** Equality filters on the kind's filterable fields. */
  filters: { field: FieldDef; value: unknown }[]
  /** `field[gte]=...` and the like. */
  ranges?: { field: ListField; op: RangeOp; value: unknown }[]
  /** `field[in]=a,b`. */
  ins?: { field: FieldDef; values: string[] }[]
  q?: string
  updatedSince?: string
  /** Only these record ids (the `ids` filter). */
  ids?: string[]
  /** `custom_fields.<name>` filters (custom-fields/custom-filters.ts), typed once resolved. */
  custom?: CustomFilter[]
  /** Extra equality conditions fixed by the route (comments of one case). */
  parent?: { column: string; value: string }
}

/** A Param that appends to `params`: each value's placeholder is its position. */
export function bind(params: unknown[]): Param {
  return (value, cast) => {
    params.push(value)
    return cast ? `CAST($${params.length} AS ${cast})` : `$${params.length}`
  }
}

/** created_at orders as the UUIDv7 id does, so it is the id's keyset: a deleted cursor still marks its place. */
function idOrder(kind: RecordKind, sort: ListSort | undefined): 'ASC' | 'DESC' | null {
  if (!sort) return kind.order === 'oldest_first' ? 'ASC' : 'DESC'
  if (sort.field.name === 'created_at') return sort.descending ? 'DESC' : 'ASC'
  return null
}

/** A list's limit, written into statement texts: a checked integer is safe to write in. */
function checkedLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`list limit must be a positive integer, got ${limit}`)
  return limit
}

/**
 * The hot path of every list: the statement text is assembled directly (identifiers come from the
 * kind definitions, values are parameters) and run as a compiled query, which skips Kysely's
 * per-call query building; profiles showed that building at ~8% of a list request. `param` adds
 * the values after those already bound; `org` is the organization's SQL (see listConditions);
 * `erpShown` the condition under which ERP fields are shown (record-sql.ts, recordJsonText).
 */
export function listPageSql(kind: RecordKind, opts: ListOptions, param: Param, org: string, erpShown?: string): string {
  const conditions = listConditions(kind, opts, param, org)
  const byId = idOrder(kind, opts.sort)
  const cursor = opts.cursor ? param(opts.cursor, 'uuid') : null
  // Keyset on the UUIDv7 id (its timestamp is created_at): a deleted cursor record still marks its place.
  if (byId && cursor) conditions.push(`r.id ${byId === 'ASC' ? '>' : '<'} ${cursor}`)
  // The `ids` filter looks each id up through the primary key. As `r.id = ANY(ids)`, a table without
  // fresh statistics (a large import just landed) was read backwards through the organization's
  // whole key range for one page: 26 ms against 0.9 ms among 176,000 contacts.
  const from = opts.ids
    ? `unnest(${param([...new Set(opts.ids)], 'uuid[]')}) AS w(id) CROSS JOIN LATERAL (SELECT * FROM ${kind.table} x WHERE x.org_id = ${org} AND x.id = w.id LIMIT 1) r`
    : `${kind.table} r`
  // The limit is written into the text, not bound: with a bound LIMIT, PostgreSQL's generic plan
  // assumes a tenth of the organization's rows, never beats the custom plan, and so every execution
  // of the prepared statement was planned anew (pg_prepared_statements: 0 generic plans of 3,100).
  // A checked integer is safe to write in; each distinct limit is one more prepared text.
  const limit = String(checkedLimit(opts.limit) + 1)
  return byId
    ? `SELECT r.id, ${recordJsonText(kind, 'r', erpShown)} AS j FROM ${from} WHERE ${conditions.join(' AND ')} ORDER BY r.id ${byId} LIMIT ${limit}`
    : sortedPageSql(kind, opts.sort!, from, conditions, cursor, limit, org, erpShown)
}

/**
 * The page's answer, built by PostgreSQL around the page statement's rows (limit + 1 at most, in
 * the page's order): one row back, `n` the rows read and `json` the whole envelope. One row instead
 * of one per record was the largest cut in the service's work per list request: `pg` made a row
 * object and a string for each record, which Node then joined (and garbage collection moved).
 * `row_number() OVER ()` numbers the rows in the order the page's LIMIT node yields them, and the
 * aggregate reads them in that order (no GROUP BY, no sort in between).
 */
export function pageEnvelopeSql(page: string, limit: number): string {
  const l = checkedLimit(limit)
  const more = `count(*) > ${l}`
  return (
    `SELECT count(*)::int AS n, '{"data":[' || coalesce(string_agg(q.j, ',') FILTER (WHERE q.ord <= ${l}), '') || '],"next_cursor":' || ` +
    `CASE WHEN ${more} THEN '"' || max(q.id::text) FILTER (WHERE q.ord = ${l}) || '"' ELSE 'null' END || ` +
    `',"has_more":' || CASE WHEN ${more} THEN 'true' ELSE 'false' END || '}' AS json ` +
    `FROM (SELECT row_number() OVER () AS ord, p.id, p.j FROM (${page}) p) q`
  )
}

/** The one row of pageEnvelopeSql. */
export interface PageEnvelopeRow {
  n: number
  json: string
}

/**
 * The page answer from its envelope row. `cursorKnown` is false only for a sorted list whose cursor
 * names no record, live or remembered (the page is then empty).
 */
export async function pageFromEnvelope(executor: Executor, orgId: string, kind: RecordKind, opts: ListOptions, row: PageEnvelopeRow): Promise<PageText & { cursorKnown: boolean }> {
  const count = Math.min(Number(row.n), opts.limit)
  // Only an empty sorted page can hide an unknown cursor; asking costs a statement on that page only.
  const cursorKnown = idOrder(kind, opts.sort) !== null || !opts.cursor || count > 0 || (await isKnownPosition(executor, orgId, kind, opts.cursor))
  return { json: row.json, count, cursorKnown }
}

export async function listRecordsPage(executor: Executor, orgId: string, kind: RecordKind, opts: ListOptions): Promise<PageText & { cursorKnown: boolean }> {
  const params: unknown[] = [orgId]
  const text = pageEnvelopeSql(listPageSql(kind, opts, bind(params), '$1'), opts.limit)
  const rows = await executor.executeQuery<PageEnvelopeRow>(CompiledQuery.raw(text, params))
  return pageFromEnvelope(executor, orgId, kind, opts, rows.rows[0])
}

/** The exact number of records a list with these filters would page through. */
export async function countRecords(executor: Executor, orgId: string, kind: RecordKind, opts: Omit<ListOptions, 'limit'>): Promise<number> {
  const params: unknown[] = [orgId]
  const param = bind(params)
  const conditions = listConditions(kind, opts, param)
  if (opts.ids) conditions.push(`r.id = ANY(${param([...new Set(opts.ids)], 'uuid[]')})`)
  const text = `SELECT count(*)::int AS n FROM ${kind.table} r WHERE ${conditions.join(' AND ')}`
  const res = await executor.executeQuery<{ n: number }>(CompiledQuery.raw(text, params))
  return Number(res.rows[0].n)
}

export async function findRecordJson(executor: Executor, orgId: string, kind: RecordKind, id: string, forUpdate = false): Promise<string | null> {
  const res = await sql<{ j: string }>`
    SELECT ${sql.raw(recordJsonText(kind, 'r'))} AS j FROM ${sql.raw(kind.table)} r
    WHERE r.org_id = ${orgId} AND r.id = ${id} ${forUpdate ? sql`FOR UPDATE` : sql``}`.execute(executor)
  return res.rows[0]?.j ?? null
}

export interface RowValues {
  /** Column name -> value, already validated against the kind. */
  fields: Record<string, unknown>
  srcId?: string | null
  customFields?: Record<string, unknown>
}

function fieldByName(kind: RecordKind, name: string): FieldDef {
  const f = kind.fields.find((x) => x.name === name)
  if (!f) throw new Error(`unknown field ${kind.name}.${name}`)
  return f
}

export async function insertRecord(
  executor: Executor,
  orgId: string,
  kind: RecordKind,
  id: string,
  createdAt: Date,
  values: RowValues,
  extra: { columns: string[]; values: RawBuilder<unknown>[]; with?: RawBuilder<unknown> } = { columns: [], values: [] },
  /** A restored record keeps its creation time and was updated now (sync clients see it again). */
  updatedAt: Date = createdAt,
): Promise<string> {
  const columns = ['org_id', 'id', 'created_at', 'updated_at', 'src_id', 'custom_fields']
  const params: RawBuilder<unknown>[] = [
    sql`${orgId}`,
    sql`${id}`,
    sql`CAST(${createdAt.toISOString()} AS timestamptz)`,
    sql`CAST(${updatedAt.toISOString()} AS timestamptz)`,
    sql`${values.srcId ?? null}`,
    jsonbValue(withoutNulls(values.customFields ?? {})),
  ]
  for (const [name, value] of Object.entries(values.fields)) {
    if (value === undefined) continue
    columns.push(name)
    params.push(castValue(fieldByName(kind, name), value))
  }
  columns.push(...extra.columns)
  params.push(...extra.values)
  const res = await sql<{ j: string }>`
    ${extra.with ? sql`WITH ${extra.with}` : sql``}
    INSERT INTO ${sql.raw(kind.table)} AS r (${sql.join(columns.map((c) => sql.ref(c)))})
    VALUES (${sql.join(params)})
    RETURNING ${sql.raw(recordJsonText(kind, 'r'))} AS j`.execute(executor)
  return res.rows[0].j
}

/** Updates and returns the record after and before the change, or null when it does not exist here. */
export async function updateRecord(
  executor: Executor,
  orgId: string,
  kind: RecordKind,
  id: string,
  values: RowValues,
  now: Date,
  extraSets: RawBuilder<unknown>[] = [],
): Promise<{ after: string; before: string } | null> {
  const sets: RawBuilder<unknown>[] = [sql`updated_at = CAST(${now.toISOString()} AS timestamptz)`]
  for (const [name, value] of Object.entries(values.fields)) {
    if (value === undefined) continue
    sets.push(sql`${sql.ref(name)} = ${castValue(fieldByName(kind, name), value)}`)
  }
  if (values.srcId !== undefined) sets.push(sql`src_id = ${values.srcId}`)
  if (values.customFields !== undefined) sets.push(sql`custom_fields = ${mergedCustomFields(sql`old.custom_fields`, jsonbValue(values.customFields))}`)
  sets.push(...extraSets)
  const t = sql.raw(kind.table)
  const res = await sql<{ after: string; before: string }>`
    WITH old AS (SELECT * FROM ${t} WHERE org_id = ${orgId} AND id = ${id} FOR UPDATE)
    UPDATE ${t} AS r SET ${sql.join(sets)}
    FROM old WHERE r.org_id = old.org_id AND r.id = old.id
    RETURNING ${sql.raw(recordJsonText(kind, 'r'))} AS after, ${sql.raw(recordJsonText(kind, 'old'))} AS before`.execute(executor)
  return res.rows[0] ?? null
}

/** Deletes one record with everything a delete writes (record-deletion.ts). */
export function deleteRecord(executor: Executor, orgId: string, kind: RecordKind, id: string): Promise<Deletion> {
  return deleteRecords(executor, orgId, kind, sql`r.id = ${id}`)
}
