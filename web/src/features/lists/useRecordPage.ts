// One page of a list, starting at a cursor (the list page pages with Previous/Next rather than
// growing). The key sits under ['records', kind, 'list'], so a record change refetches it; the
// previous page stays on screen while the next one loads.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { PAGE_SIZE, recordListKey, type ListParams } from '../../api/queries.ts'
import { fetchRecordPage } from '../../api/records.ts'
import type { RecordKind } from '../../kinds.ts'

export function useRecordPage(kind: RecordKind, params: ListParams, cursor: string | null, limit = PAGE_SIZE) {
  return useQuery({
    queryKey: [...recordListKey(kind, params), 'page', cursor ?? '', limit] as const,
    queryFn: () => fetchRecordPage(kind, { limit, ...params, cursor: cursor ?? undefined }),
    placeholderData: keepPreviousData,
  })
}
