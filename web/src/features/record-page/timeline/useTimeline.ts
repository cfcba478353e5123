// The timeline's sources for one record, each a keyset-paged query newest first: the activities
// that reference it, a case's comments, and the record's change events; merged by mergeTimeline.
// Activities and events sit under ['records', kind, 'list'] keys, so any write of those kinds
// (storeRecord) refreshes the timeline too.
import { useInfiniteQuery } from '@tanstack/react-query'
import { kindsByName } from '../../../../../src/web-contracts.ts'
import { cairn, call, type Page } from '../../../api/client.ts'
import { fetchRecordPage } from '../../../api/records.ts'
import type { CrmRecord, RecordKind } from '../../../kinds.ts'
import { mergeTimeline, type LoadedSource, type TimelineItem } from './mergeTimeline.ts'
import { fetchRecordEvents, hasEvents, type RecordEvent } from './recordEvents.ts'

const LIMIT = 20
const activityKind = kindsByName.activity

export type TimelineEntry = { type: 'activity'; record: CrmRecord } | { type: 'comment'; record: CrmRecord } | { type: 'event'; event: RecordEvent }

/** The activity field that references this kind (`account_id`), if activities can. */
export function activityRefField(kind: RecordKind): string | undefined {
  return activityKind.fields.find((f) => f.type === 'ref' && f.ref === kind.name)?.name
}

function useSource<T>(queryKey: readonly unknown[], enabled: boolean, fetchPage: (cursor: string | undefined) => Promise<Page<T>>, toItem: (t: T) => TimelineItem<TimelineEntry>) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
    enabled,
  })
  const loaded: LoadedSource = { items: (query.data?.pages.flatMap((p) => p.data) ?? []).map(toItem), hasMore: query.hasNextPage }
  return { query, loaded, enabled }
}

export function useTimeline(kind: RecordKind, id: string) {
  const refField = activityRefField(kind)
  const activities = useSource(
    ['records', activityKind.path, 'list', { timeline: `${refField}=${id}` }],
    Boolean(refField),
    (cursor) => fetchRecordPage(activityKind, { [refField!]: id, limit: LIMIT, cursor }),
    (record: CrmRecord) => ({ key: `a-${record.id}`, at: record.created_at, value: { type: 'activity', record } }),
  )
  const comments = useSource(
    ['timeline', 'case', id, 'comments'],
    kind.name === 'case',
    (cursor) => call(() => cairn.GET('/api/v1/cases/{id}/comments', { params: { path: { id }, query: { limit: LIMIT, cursor, sort: '-created_at' } } })) as Promise<Page<CrmRecord>>,
    (record: CrmRecord) => ({ key: `c-${record.id}`, at: record.created_at, value: { type: 'comment', record } }),
  )
  const events = useSource(
    ['records', kind.path, 'list', { events: id }],
    hasEvents(kind),
    (cursor) => fetchRecordEvents(kind, id, LIMIT, cursor),
    (event: RecordEvent) => ({ key: `e-${event.id}`, at: event.timestamp, value: { type: 'event', event } }),
  )
  const sources = [activities, comments, events].filter((s) => s.enabled)
  const merged = mergeTimeline(sources.map((s) => s.loaded))
  const failed = sources.find((s) => s.query.isError)
  return {
    items: merged.items as TimelineItem<TimelineEntry>[],
    events: (events.query.data?.pages.flatMap((p) => p.data) ?? []) as RecordEvent[],
    hasMore: merged.hasMore,
    isPending: sources.some((s) => s.query.isPending),
    isFetchingMore: sources.some((s) => s.query.isFetchingNextPage),
    error: failed?.query.error ?? null,
    retry: () => sources.forEach((s) => s.query.isError && void s.query.refetch()),
    loadMore: () => sources.forEach((s) => s.loaded.hasMore && void s.query.fetchNextPage()),
  }
}
