/**
 * A list request's query string (REST) or arguments (MCP) as repository list options: the one
 * reading of limit, cursor, sort, q, updated_since, ids, the kind's equality filters and its range
 * and `[in]` filters. A count reads the same filters (its schema has no limit, cursor or sort).
 */
import type { RecordKind } from './record-kind.ts'
import type { ListOptions } from './record.repository.ts'
import { listParams, parseSort } from './list-params.ts'
import { parseCustomFilterParams } from './custom-fields/custom-filters.ts'
import { memberFilterValue } from './owner-filter.ts'

export function listOptionsFrom(kind: RecordKind, query: Record<string, unknown>): ListOptions {
  const known = listParams(kind)
  const filters: (ListOptions['filters'][number] & { order: number })[] = []
  const ranges: (NonNullable<ListOptions['ranges']>[number] & { order: number })[] = []
  const ins: (NonNullable<ListOptions['ins']>[number] & { order: number })[] = []
  let custom = false
  for (const key of Object.keys(query)) {
    const value = query[key]
    if (value === undefined) continue
    const param = known.get(key)
    if (param?.role === 'filter') filters.push({ field: param.field, value: memberFilterValue(param.field, value), order: param.order })
    else if (param?.role === 'range') ranges.push({ field: param.field, op: param.op, value, order: param.order })
    else if (param?.role === 'in' && typeof value === 'string') ins.push({ field: param.field, values: [...new Set(value.split(','))], order: param.order })
    else if (key.startsWith('custom_fields.')) custom = true
  }
  // In the kind's order, whatever the query's: one statement text per set of filters.
  const byOrder = (a: { order: number }, b: { order: number }) => a.order - b.order
  return {
    limit: (query.limit as number | undefined) ?? 50,
    cursor: query.cursor as string | undefined,
    sort: parseSort(kind, query.sort),
    q: query.q as string | undefined,
    updatedSince: query.updated_since as string | undefined,
    ids: typeof query.ids === 'string' ? query.ids.split(',') : undefined,
    filters: filters.sort(byOrder).map(({ field, value }) => ({ field, value })),
    ranges: ranges.sort(byOrder).map(({ field, op, value }) => ({ field, op, value })),
    ins: ins.sort(byOrder).map(({ field, values }) => ({ field, values })),
    custom: custom ? parseCustomFilterParams(query) : [],
  }
}

const ofRequest = new WeakMap<object, ListOptions>()

/** listOptionsFrom, read once per request: the scope hooks and the handler all need it. */
export function listOptionsOf(kind: RecordKind, query: object): ListOptions {
  let opts = ofRequest.get(query)
  if (opts === undefined) ofRequest.set(query, (opts = listOptionsFrom(kind, query as Record<string, unknown>)))
  return opts
}

/** The fields a list or count sorts or filters by: reading them is reading the field (record-access.ts). */
export function fieldsUsed(opts: Omit<ListOptions, 'limit'>): string[] {
  return [
    ...(opts.sort ? [opts.sort.field.name] : []),
    ...opts.filters.map((f) => f.field.name),
    ...(opts.ranges ?? []).map((r) => r.field.name),
    ...(opts.ins ?? []).map((i) => i.field.name),
  ]
}
