/**
 * The SQL shapes every kind shares: the expression that builds a record's JSON inside PostgreSQL
 * (so list pages pass through Node as text, unparsed), and the casts of written values.
 */
import { sql, type RawBuilder } from 'kysely'
import type { FieldDef, FieldType, RecordKind } from './record-kind.ts'

export const SQL_TYPES: Record<FieldType, string> = {
  string: 'text',
  text: 'text',
  email: 'text',
  url: 'text',
  enum: 'text',
  decimal: 'numeric',
  integer: 'integer',
  boolean: 'boolean',
  date: 'date',
  datetime: 'timestamptz',
  ref: 'uuid',
  user: 'uuid',
}

const TS_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`

/** RFC 3339 in UTC with milliseconds (docs/decisions.md, General). */
export function timestampJson(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', ${TS_FORMAT})`
}

function fieldJson(alias: string, f: FieldDef): string {
  const col = `${alias}.${f.name}`
  switch (f.type) {
    case 'datetime':
      return timestampJson(col)
    case 'date':
      return `to_char(${col}, 'YYYY-MM-DD')`
    case 'decimal':
      // Exact decimals travel as strings: a JSON number would round them in most parsers.
      return `${col}::text`
    default:
      return col
  }
}

const jsonCache = new Map<string, string>()

/**
 * A record's JSON text, built by PostgreSQL from a row of the kind. `row_to_json` over a sub-select
 * writes compact JSON with the fields in declaration order, and has no argument limit.
 *
 * `erpShown`, when given, is an SQL condition: the kind's ERP fields (amounts) read as null where it
 * is not true. The bearer list's statement passes the check of its own token (list-with-bearer.ts),
 * so a page for a token without erp:read leaves PostgreSQL already shaped as record-access.ts
 * shapes it, instead of being parsed and written again in Node.
 */
export function recordJsonText(kind: RecordKind, alias: string, erpShown?: string): string {
  const key = `${kind.name}:${alias}:${erpShown ?? ''}`
  const cached = jsonCache.get(key)
  if (cached) return cached
  const columns: string[] = [`${alias}.id`]
  for (const f of kind.fields) columns.push(`${f.erp && erpShown ? `CASE WHEN ${erpShown} THEN ${fieldJson(alias, f)} END` : fieldJson(alias, f)} AS ${f.name}`)
  columns.push(
    `${alias}.src_id`,
    `${alias}.custom_fields`,
    `${timestampJson(`${alias}.created_at`)} AS created_at`,
    `${timestampJson(`${alias}.updated_at`)} AS updated_at`,
  )
  const text = `(SELECT row_to_json(x)::text FROM (SELECT ${columns.join(', ')}) x)`
  if (jsonCache.size < 1000) jsonCache.set(key, text)
  return text
}

/** A bound parameter cast to the column's type, so both drivers infer the same thing. */
export function castValue(f: Pick<FieldDef, 'type'>, value: unknown): RawBuilder<unknown> {
  if (value === null || value === undefined) return sql`NULL`
  return sql`CAST(${value} AS ${sql.raw(SQL_TYPES[f.type])})`
}

export function jsonbValue(value: unknown): RawBuilder<unknown> {
  return sql`CAST(${JSON.stringify(value)} AS jsonb)`
}

/**
 * `custom_fields` after a change that sent `given`: its keys replace the stored ones and a key sent
 * as null is removed (a JSON merge patch one level deep, like Stripe's metadata); other keys stay.
 * Both arguments are SQL expressions of type jsonb.
 */
export function mergedCustomFields(stored: RawBuilder<unknown>, given: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(SELECT COALESCE(jsonb_object_agg(e.key, e.value), '{}'::jsonb) FROM jsonb_each(${stored} || ${given}) e WHERE e.value <> 'null'::jsonb)`
}

/** A create's custom_fields: a key sent as null is simply not stored. */
export function withoutNulls(customFields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(customFields).filter(([, v]) => v !== null))
}
