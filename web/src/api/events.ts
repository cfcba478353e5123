// The organization's change feed for the event log page: newest first (order=desc), older pages on
// demand, refreshed while the page is open; and the event catalogue for the type filter.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { cairn, call, type Schemas } from './client.ts'

export type FeedEvent = Schemas['FeedEvent']
export type EventType = Schemas['EventType']

export function useEventTypes() {
  return useQuery({ queryKey: ['event-types'], queryFn: () => call(() => cairn.GET('/api/v1/event-types')), staleTime: Infinity })
}

export function useEventLog(types: string[]) {
  return useInfiniteQuery({
    queryKey: ['events', 'log', types],
    queryFn: ({ pageParam }) =>
      call(() =>
        cairn.GET('/api/v1/events', {
          params: { query: { order: 'desc', limit: 50, ...(pageParam === null ? {} : { before: pageParam }), ...(types.length > 0 ? { types: types.join(',') } : {}) } },
        }),
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_before ?? undefined,
    refetchInterval: 5000,
  })
}
