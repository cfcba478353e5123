// The pipeline's data: per-stage counts and totals (GET /opportunities/pipeline, computed by the
// database) and each column's cards (the opportunities of one stage, keyset-paged, newest first).
// A board's view narrows both with the opportunity list's filters, read from the URL.
// Keys sit under ['records', 'opportunities'], so every opportunity write refreshes them.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { opportunityKind } from '../../../../src/web-contracts.ts'
import { cairn, call, type Schemas } from '../../api/client.ts'
import { fetchRecordPage } from '../../api/records.ts'
import { currentContent } from '../lists/ViewSwitcher.tsx'

export type PipelineSummary = Schemas['Pipeline']
export type PipelineStage = Schemas['PipelineStage']
export type BoardFilters = Record<string, string>

export const CARDS_PER_PAGE = 20
export const summaryKey = (filters: BoardFilters = {}) => ['records', opportunityKind.path, 'pipeline-summary', filters] as const
export const columnKey = (stage: string, filters: BoardFilters = {}) => ['records', opportunityKind.path, 'list', { board: stage, ...filters }] as const

/** The board's filters: the URL's list parameters (a saved view's, or chosen in Filters). */
export function useBoardFilters(): BoardFilters {
  const [params] = useSearchParams()
  return currentContent(params, false).filters
}

export function usePipelineSummary(filters: BoardFilters = {}) {
  return useQuery({
    queryKey: summaryKey(filters),
    queryFn: () => call(() => cairn.GET('/api/v1/opportunities/pipeline', { params: { query: filters as never } })),
  })
}

export function useStageColumn(stage: string, filters: BoardFilters = {}) {
  return useInfiniteQuery({
    queryKey: columnKey(stage, filters),
    queryFn: ({ pageParam }) => fetchRecordPage(opportunityKind, { ...filters, stage, limit: CARDS_PER_PAGE, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  })
}
