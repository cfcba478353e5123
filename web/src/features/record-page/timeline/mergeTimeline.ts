// Merges the timeline's sources (each paged newest first) into one list, newest first. Only what
// is certain is shown: while a source has more pages, nothing older than its last loaded item is,
// since an unloaded page of that source could hold items in between.
export interface TimelineItem<T = unknown> {
  key: string
  /** RFC 3339 time the entry sorts by. */
  at: string
  value: T
}

export interface LoadedSource {
  items: TimelineItem[]
  hasMore: boolean
}

export function mergeTimeline(sources: LoadedSource[]): { items: TimelineItem[]; hasMore: boolean } {
  const frontier = sources.filter((s) => s.hasMore && s.items.length > 0).map((s) => Date.parse(s.items.at(-1)!.at))
  const cutoff = frontier.length > 0 ? Math.max(...frontier) : -Infinity
  const items = sources
    .flatMap((s) => s.items)
    .filter((i) => Date.parse(i.at) >= cutoff)
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || (a.key < b.key ? 1 : -1))
  return { items, hasMore: sources.some((s) => s.hasMore) }
}
