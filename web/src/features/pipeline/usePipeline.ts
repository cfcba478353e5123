// The pipeline's data: per-stage counts and totals (GET /opportunities/pipeline, computed by the
// database) and each column's cards (the opportunities of one stage, keyset-paged, newest first).
// Keys sit under ['records', 'opportunities'], so every opportunity write refreshes them.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { opportunityKind } from '../../../../src/web-contracts.ts'
import { cairn, call, type Schemas } from '../../api/client.ts'
import { fetchRecordPage } from '../../api/records.ts'

export type PipelineSummary = Schemas['Pipeline']
export type PipelineStage = Schemas['PipelineStage']

export const CARDS_PER_PAGE = 20
export const summaryKey = ['records', opportunityKind.path, 'pipeline-summary'] as const
export const columnKey = (stage: string) => ['records', opportunityKind.path, 'list', { board: stage }] as const

export function usePipelineSummary() {
  return useQuery({ queryKey: summaryKey, queryFn: () => call(() => cairn.GET('/api/v1/opportunities/pipeline')) })
}

export function useStageColumn(stage: string) {
  return useInfiniteQuery({
    queryKey: columnKey(stage),
    queryFn: ({ pageParam }) => fetchRecordPage(opportunityKind, { stage, limit: CARDS_PER_PAGE, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  })
}
