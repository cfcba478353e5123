// The exact number of records a list's search and filters match (GET /{kind}/count), for the
// list's header and the overview. Its key sits under ['records', kind], so every record mutation
// that refreshes the lists refreshes the counts too.
import { useQueries, useQuery } from '@tanstack/react-query'
import { fetchRecordCount } from '../../api/records.ts'
import type { ListParams } from '../../api/queries.ts'
import type { RecordKind } from '../../kinds.ts'

function countQuery(kind: RecordKind, params: ListParams, staleTime: number) {
  return {
    queryKey: ['records', kind.path, 'count', params] as const,
    queryFn: () => fetchRecordCount(kind, params),
    staleTime,
  }
}

/** A list's count, fetched again whenever the list is (records others wrote count at once). */
export function useRecordCount(kind: RecordKind, params: ListParams = {}) {
  return useQuery(countQuery(kind, params, 0))
}

/** The overview's counts of every kind, kept half a minute. */
export function useRecordCounts(kinds: readonly RecordKind[]) {
  return useQueries({ queries: kinds.map((kind) => countQuery(kind, {}, 30_000)) })
}

export const formatCount = new Intl.NumberFormat('en-US').format
