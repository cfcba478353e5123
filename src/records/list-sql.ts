/**
 * The SQL text of list reads, assembled by hand for the hot path (record.repository.ts runs it as a
 * compiled query): the WHERE conditions every list and count share, and the keyset of a sorted
 * page. Identifiers come from the kind definitions; values are always parameters.
 */
import type { FieldDef, RecordKind } from './record-kind.ts'
import type { ListOptions } from './record.repository.ts'
import { RANGE_OPS, type ListField, type ListSort } from './list-params.ts'
import { recordJsonText, SQL_TYPES } from './record-sql.ts'
import { customFilterConditions } from './custom-fields/custom-filters.ts'
import { emailDomainSql, startsWithSql } from './search/match-sql.ts'

/** Adds a bound value and answers its placeholder, cast when the column type must be inferred. */
export type Param = (value: unknown, cast?: string) => string

export function sqlType(f: ListField): string {
  return SQL_TYPES[f.type]
}

/** LIKE's wildcards and its escape character as literals (docs/api.md: `%` and `_` are literal). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/**
 * The filters of a list or count as conditions on alias `r`. `org` is the organization's SQL: the
 * parameter $1, or in the bearer list's single statement the organization of the checked token.
 */
export function listConditions(kind: RecordKind, opts: Omit<ListOptions, 'limit'>, param: Param, org = '$1'): string[] {
  const conditions = [`r.org_id = ${org}`]
  if (opts.parent) conditions.push(`r.${opts.parent.column} = ${param(opts.parent.value, 'uuid')}`)
  // A null value is `owner_id=none`: no owner (owner-filter.ts).
  for (const { field, value } of opts.filters) conditions.push(value === null ? `r.${field.name} IS NULL` : `r.${field.name} = ${param(value, SQL_TYPES[field.type])}`)
  for (const { field, op, value } of opts.ranges ?? []) conditions.push(`r.${field.name} ${RANGE_OPS[op]} ${param(value, sqlType(field))}`)
  for (const { field, values } of opts.ins ?? []) conditions.push(`r.${field.name} = ANY(${param(values, 'text[]')})`)
  if (opts.custom?.length) conditions.push(...customFilterConditions(opts.custom, param))
  if (opts.updatedSince) conditions.push(`r.updated_at >= ${param(opts.updatedSince, 'timestamptz')}`)
  if (opts.q) conditions.push(qConditionSql(kind, opts.q, param))
  return conditions
}

const MAX_UUID = `'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid`
const MIN_UUID = `'00000000-0000-0000-0000-000000000000'::uuid`

/**
 * A page ordered by (field, id), NULLs last in both directions, as two index ranges of
 * (org_id, field, id): the non-NULL values, then the NULLs by id. Postgres runs a UNION ALL's
 * branches in order and stops at the outer LIMIT, so the NULL branch costs nothing while the first
 * fills the page; each branch's own LIMIT keeps the append from being a parallel one, which could
 * interleave them.
 *
 * With a cursor, its position is read in the same statement (`cur`): the record's current value,
 * or its value when deleted (record_tombstones, migration 0011). The position is where the record
 * is now, not where the client saw it: that is what keeps every listing finishing (each page
 * starts strictly after the previous one's end), and docs/api.md, Lists, states what it means when
 * the cursor record changed its value in between. An unknown cursor leaves `cur` empty and the
 * page empty (the caller tells why).
 */
export function sortedPageSql(kind: RecordKind, sort: ListSort, from: string, conditions: string[], cursor: string | null, limit: string, org = '$1', erpShown?: string): string {
  if (sort.field.type === 'enum') return enumPageSql(kind, sort, from, conditions, cursor, limit, org, erpShown)
  const col = `r.${sort.field.name}`
  const dir = sort.descending ? 'DESC' : 'ASC'
  const after = sort.descending ? '<' : '>'
  const json = recordJsonText(kind, 'r', erpShown)
  const where = conditions.join(' AND ')
  let cte = ''
  let valueAfter = ''
  let nullAfter = ''
  if (cursor) {
    cte = cursorValueCte(kind, sort.field.name, sqlType(sort.field), cursor, org)
    // A NULL cursor value makes the row comparison NULL: no non-NULL value follows it.
    valueAfter = ` AND (${col}, r.id) ${after} ((SELECT v FROM cur), ${cursor})`
    nullAfter = ` AND EXISTS (SELECT 1 FROM cur) AND r.id ${after} CASE WHEN (SELECT v FROM cur) IS NULL THEN ${cursor} ELSE ${sort.descending ? MAX_UUID : MIN_UUID} END`
  }
  const values = `SELECT r.id, ${json} AS j FROM ${from} WHERE ${where} AND ${col} IS NOT NULL${valueAfter} ORDER BY ${col} ${dir}, r.id ${dir} LIMIT ${limit}`
  const nulls = `SELECT r.id, ${json} AS j FROM ${from} WHERE ${where} AND ${col} IS NULL${nullAfter} ORDER BY r.id ${dir} LIMIT ${limit}`
  return `${cte}SELECT u.id, u.j FROM ((${values}) UNION ALL (${nulls})) u LIMIT ${limit}`
}

/** The cursor record's value of the sort field: the live record's, or its tombstone's. */
function cursorValueCte(kind: RecordKind, field: string, cast: string, cursor: string, org: string): string {
  return (
    `WITH cur AS (SELECT x.${field} AS v FROM ${kind.table} x WHERE x.org_id = ${org} AND x.id = ${cursor} ` +
    `UNION ALL SELECT CAST(t.sort_values->>'${field}' AS ${cast}) FROM record_tombstones t ` +
    `WHERE t.org_id = ${org} AND t.kind = '${kind.table}' AND t.id = ${cursor} LIMIT 1) `
  )
}

/**
 * A page sorted by a status-like field in the order its values are defined (a pipeline: prospecting
 * before proposal before closed_won; low before high), not alphabetically: one index range of
 * (org_id, field, id) per value, in that order, then the NULLs, each stopped by the outer LIMIT as
 * in sortedPageSql. The keyset is (the value's position, id). Values come from the kind definition,
 * never from the request.
 */
function enumPageSql(kind: RecordKind, sort: ListSort, from: string, conditions: string[], cursor: string | null, limit: string, org: string, erpShown?: string): string {
  const name = sort.field.name
  const values = [...((sort.field as FieldDef).values ?? [])]
  if (sort.descending) values.reverse()
  const dir = sort.descending ? 'DESC' : 'ASC'
  const after = sort.descending ? '<' : '>'
  const json = recordJsonText(kind, 'r', erpShown)
  const where = conditions.join(' AND ')
  const literal = (v: string) => `'${v.replaceAll("'", "''")}'`
  // The cursor's position among the values in this direction (NULL: the cursor is a NULL).
  const position = `array_position(ARRAY[${values.map(literal).join(', ')}]::text[], (SELECT v FROM cur)::text)`
  const branches = values.map((v, i) => {
    const keyset = cursor ? ` AND EXISTS (SELECT 1 FROM cur) AND (${position} < ${i + 1} OR (${position} = ${i + 1} AND r.id ${after} ${cursor}))` : ''
    return `(SELECT r.id, ${json} AS j FROM ${from} WHERE ${where} AND r.${name} = ${literal(v)}${keyset} ORDER BY r.id ${dir} LIMIT ${limit})`
  })
  const nullKeyset = cursor ? ` AND EXISTS (SELECT 1 FROM cur) AND ((SELECT v FROM cur) IS NOT NULL OR r.id ${after} ${cursor})` : ''
  branches.push(`(SELECT r.id, ${json} AS j FROM ${from} WHERE ${where} AND r.${name} IS NULL${nullKeyset} ORDER BY r.id ${dir} LIMIT ${limit})`)
  const cte = cursor ? cursorValueCte(kind, name, 'text', cursor, org) : ''
  return `${cte}SELECT u.id, u.j FROM (${branches.join(' UNION ALL ')}) u LIMIT ${limit}`
}

/**
 * `?q=`: any searched field matches, each the way it is searched (RecordField.search): `contains`
 * fields anywhere, `prefix` fields from their start, `email` fields from the start of the address
 * or of its domain. Each alternative is an index of migrations 0015 and 0022, so the planner ORs
 * their bitmaps instead of reading the organization's records.
 */
function qConditionSql(kind: RecordKind, q: string, param: Param): string {
  let pattern: string | null = null
  let lowered: string | null = null
  const alternatives = kind.fields.flatMap((f) => {
    if (!f.search) return []
    if (f.search === 'contains') return [`r.${f.name} ILIKE ${(pattern ??= param(`%${escapeLike(q)}%`))}`]
    // lower() in SQL, as the indexes apply it (JavaScript's lower-casing differs for some letters).
    lowered ??= `lower(${param(q, 'text')})`
    const address = startsWithSql(`lower(r.${f.name})`, lowered)
    return f.search === 'email' ? [`(${address})`, `(${startsWithSql(emailDomainSql(`r.${f.name}`), lowered)})`] : [`(${address})`]
  })
  return `(${alternatives.join(' OR ')})`
}
