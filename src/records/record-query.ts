/**
 * A list request's query string (REST) or arguments (MCP) as repository list options: the one
 * reading of limit, cursor, sort, q, updated_since, ids, the kind's equality filters and its range
 * and `[in]` filters. A count reads the same filters (its schema has no limit, cursor or sort).
 */
import type { RecordKind } from './record-kind.ts'
import type { ListOptions } from './record.repository.ts'
import { parseIns, parseRanges, parseSort } from './list-params.ts'
import { filterableFields } from './record.schemas.ts'
import { parseCustomFilterParams } from './custom-fields/custom-filters.ts'

export function listOptionsFrom(kind: RecordKind, query: Record<string, unknown>): ListOptions {
  return {
    limit: (query.limit as number | undefined) ?? 50,
    cursor: query.cursor as string | undefined,
    sort: parseSort(kind, query.sort),
    q: query.q as string | undefined,
    updatedSince: query.updated_since as string | undefined,
    ids: typeof query.ids === 'string' ? query.ids.split(',') : undefined,
    filters: filterableFields(kind)
      .filter((f) => query[f.name] !== undefined)
      .map((field) => ({ field, value: query[field.name] })),
    ranges: parseRanges(kind, query),
    ins: parseIns(kind, query),
    custom: parseCustomFilterParams(query),
  }
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
