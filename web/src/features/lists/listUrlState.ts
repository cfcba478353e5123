// A list's view as URL search params, so a view is a link: `q`, `sort` (field or -field), equality
// filters (`stage=proposal`, `account_id=...`), ranges (`amount[gte]=1000`), and `cursor`, the
// page's start. Everything but the cursor is also what the count takes.
import { rangeFields, sortFields, type ListField } from '../../../../src/web-contracts.ts'
import type { ListParams } from '../../api/queries.ts'
import type { RecordKind } from '../../kinds.ts'

export type { ListField }
export type RangeBound = 'gte' | 'lte'

export interface ListView {
  q: string
  /** `name`, `-amount`, or '' for the kind's default order. */
  sort: string
  /** Equality filters by field name. */
  filters: Record<string, string>
  /** `amount[gte]` -> '1000'. */
  ranges: Record<string, string>
  cursor: string | null
}

export const rangeKey = (field: string, bound: RangeBound) => `${field}[${bound}]`

/** Fields the list can range over, bar updated_at (created_at is the one people ask for). */
export function rangeFieldsOf(kind: RecordKind): ListField[] {
  return rangeFields(kind).filter((f) => f.name !== 'updated_at')
}

export function sortableNames(kind: RecordKind): Set<string> {
  return new Set(sortFields(kind).map((f) => f.name))
}

export function readView(kind: RecordKind, params: URLSearchParams): ListView {
  const filters: Record<string, string> = {}
  for (const f of kind.fields) {
    const v = f.filter ? params.get(f.name) : null
    if (v) filters[f.name] = v
  }
  const ranges: Record<string, string> = {}
  for (const f of rangeFieldsOf(kind)) {
    for (const bound of ['gte', 'lte'] as const) {
      const v = params.get(rangeKey(f.name, bound))
      if (v) ranges[rangeKey(f.name, bound)] = v
    }
  }
  const sort = params.get('sort') ?? ''
  return {
    q: params.get('q') ?? '',
    // A sort the kind does not offer (an old or edited link) is dropped rather than sent for a 400.
    sort: sortableNames(kind).has(sort.replace(/^-/, '')) ? sort : '',
    filters,
    ranges,
    cursor: params.get('cursor'),
  }
}

/** The list's and the count's filters: search, equality and ranges (no sort, no cursor). */
export function filterParams(view: ListView): ListParams {
  return { q: view.q || undefined, ...view.filters, ...view.ranges }
}

export function isNarrowed(view: ListView): boolean {
  return Boolean(view.q) || Object.keys(view.filters).length > 0 || Object.keys(view.ranges).length > 0
}

/** The next sort when a column header is clicked: ascending, descending, then the default order. */
export function nextSort(current: string, field: string): string {
  if (current === field) return `-${field}`
  if (current === `-${field}`) return ''
  return field
}
