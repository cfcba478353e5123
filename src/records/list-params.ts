/**
 * What a list can sort and range over, per kind, and the query parameters that say so: `sort`,
 * `field[gte|gt|lte|lt]` and `field[in]` (docs/api.md, Lists). The schemas here are part of each
 * kind's list and count query schemas (record.schemas.ts), the single validation of both.
 */
import type { FieldDef, FieldType, RecordKind } from './record-kind.ts'

/** A column a list can sort or range over: a kind's field, or created_at / updated_at. */
export interface ListField {
  name: string
  type: FieldType
  label: string
  erp?: boolean
}

export type RangeOp = 'gte' | 'gt' | 'lte' | 'lt'
export const RANGE_OPS: Record<RangeOp, string> = { gte: '>=', gt: '>', lte: '<=', lt: '<' }
export const MAX_IN_VALUES = 50

export interface ListSort {
  field: ListField
  descending: boolean
}

type Schema = Record<string, unknown>

const CREATED_AT: ListField = { name: 'created_at', type: 'datetime', label: 'Created' }
const UPDATED_AT: ListField = { name: 'updated_at', type: 'datetime', label: 'Updated' }
const RANGE_TYPES: readonly FieldType[] = ['date', 'datetime', 'decimal', 'integer']

/** Per kind, computed once: every list request reads these. */
function perKind<T>(compute: (kind: RecordKind) => T): (kind: RecordKind) => T {
  const cache = new WeakMap<RecordKind, T>()
  return (kind) => {
    let value = cache.get(kind)
    if (value === undefined) cache.set(kind, (value = compute(kind)))
    return value
  }
}

export const sortFields = perKind((kind): ListField[] => [CREATED_AT, UPDATED_AT, ...kind.fields.filter((f) => f.sort)])

export const rangeFields = perKind((kind): ListField[] => [CREATED_AT, UPDATED_AT, ...kind.fields.filter((f) => RANGE_TYPES.includes(f.type))])

/** Status-like fields: the filterable enumerations and the standard picklists. */
export const inFields = perKind((kind): FieldDef[] => kind.fields.filter((f) => (f.type === 'enum' || f.picklist) && f.filter))

function rangeValueSchema(f: ListField): Schema {
  switch (f.type) {
    case 'decimal':
      return { type: 'string', pattern: '^-?\\d{1,16}(\\.\\d{1,2})?$', description: `${f.label}: an exact decimal such as 50000 or 1234.50.` }
    case 'integer':
      // The column's range (integer): a bound beyond it would fail in the database, not match nothing.
      return { type: 'integer', minimum: -2147483648, maximum: 2147483647, description: f.label }
    case 'date':
      return { type: 'string', format: 'date', description: `${f.label}: YYYY-MM-DD.` }
    default:
      return { type: 'string', format: 'date-time', description: `${f.label}: RFC 3339.` }
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** `sort`, the range and `[in]` parameters of a kind's list (the count takes all but `sort`). */
export function listParamSchemas(kind: RecordKind): { sort: Schema; filters: Record<string, Schema> } {
  const names = sortFields(kind).map((f) => f.name)
  const sort: Schema = {
    type: 'string',
    enum: names.flatMap((n) => [n, `-${n}`]),
    description: `Order of the list: a field, ascending, or -field, descending; NULLs last either way, the id breaking ties. Default: ${kind.order === 'oldest_first' ? 'created_at' : '-created_at'}.`,
  }
  const filters: Record<string, Schema> = {}
  for (const f of rangeFields(kind)) {
    for (const op of Object.keys(RANGE_OPS)) filters[`${f.name}[${op}]`] = rangeValueSchema(f)
  }
  for (const f of inFields(kind)) {
    if (f.picklist) {
      // Any values: stored values outside the organization's options (imported data) are listed too.
      filters[`${f.name}[in]`] = {
        type: 'string',
        pattern: `^[^,]+(,[^,]+){0,${MAX_IN_VALUES - 1}}$`,
        maxLength: 6000,
        description: `${f.label} is one of these, 1-${MAX_IN_VALUES} comma-separated values (a standard picklist: GET /api/v1/picklists lists the organization's options).`,
      }
      continue
    }
    const one = `(${(f.values ?? []).map(escapeRegex).join('|')})`
    filters[`${f.name}[in]`] = {
      type: 'string',
      pattern: `^${one}(,${one}){0,${MAX_IN_VALUES - 1}}$`,
      description: `${f.label} is one of these, 1-${MAX_IN_VALUES} comma-separated values of: ${(f.values ?? []).join(', ')}.`,
    }
  }
  return { sort, filters }
}

export function parseSort(kind: RecordKind, value: unknown): ListSort | undefined {
  if (typeof value !== 'string') return undefined
  const descending = value.startsWith('-')
  const name = descending ? value.slice(1) : value
  const field = sortFields(kind).find((f) => f.name === name)
  return field ? { field, descending } : undefined
}

/** What a query parameter of a kind's list means, with its place among its like (the statement's order). */
export type ListParam =
  | { role: 'filter'; field: FieldDef; order: number }
  | { role: 'range'; field: ListField; op: RangeOp; order: number }
  | { role: 'in'; field: FieldDef; order: number }

/**
 * Every filter parameter of a kind's list by its name (`stage`, `amount[gte]`, `stage[in]`), built
 * once: a request's few parameters are looked up here instead of every possible name being built
 * and tried against each request's query.
 */
export const listParams = perKind((kind): Map<string, ListParam> => {
  const params = new Map<string, ListParam>()
  kind.fields.filter((f) => f.filter).forEach((field, order) => params.set(field.name, { role: 'filter', field, order }))
  let order = 0
  for (const field of rangeFields(kind)) {
    for (const op of Object.keys(RANGE_OPS) as RangeOp[]) params.set(`${field.name}[${op}]`, { role: 'range', field, op, order: order++ })
  }
  inFields(kind).forEach((field, i) => params.set(`${field.name}[in]`, { role: 'in', field, order: i }))
  return params
})
