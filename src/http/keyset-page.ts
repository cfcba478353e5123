/**
 * One page of a keyset-paged list from rows fetched with `limit + 1` (the extra row only tells that
 * more follow): the API's `{ data, has_more, next_cursor }` shape, the cursor being the last id.
 */
export function keysetPage<T extends { id: string }>(rows: T[], limit: number): { data: T[]; has_more: boolean; next_cursor: string | null } {
  return keysetPageBy(rows, limit, (row) => row.id)
}

/** The same for items whose key is not called `id` (a member's `user_id`). */
export function keysetPageBy<T>(rows: T[], limit: number, keyOf: (row: T) => string): { data: T[]; has_more: boolean; next_cursor: string | null } {
  const has_more = rows.length > limit
  const data = has_more ? rows.slice(0, limit) : rows
  return { data, has_more, next_cursor: has_more ? keyOf(data[data.length - 1]) : null }
}
