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
/** `owner`: the board's owner filter (`me`, `none`, a user id), as the list's `owner_id`; undefined: everyone's. */
export const summaryKey = (owner?: string) => ['records', opportunityKind.path, 'pipeline-summary', { owner }] as const
export const columnKey = (stage: string, owner?: string) => ['records', opportunityKind.path, 'list', { board: stage, owner }] as const

export function usePipelineSummary(owner?: string) {
  return useQuery({ queryKey: summaryKey(owner), queryFn: () => call(() => cairn.GET('/api/v1/opportunities/pipeline', { params: { query: { owner_id: owner } } })) })
}

export function useStageColumn(stage: string, owner?: string) {
  return useInfiniteQuery({
    queryKey: columnKey(stage, owner),
    queryFn: ({ pageParam }) => fetchRecordPage(opportunityKind, { stage, owner_id: owner, limit: CARDS_PER_PAGE, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  })
}
