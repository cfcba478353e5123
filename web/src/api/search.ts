// Search across record kinds (GET /api/v1/search): the command palette's one call.
import { cairn, call, type Schemas } from './client.ts'

export type SearchHit = Schemas['SearchHit']

export const SEARCH_LIMIT = 20

export async function searchRecords(q: string): Promise<SearchHit[]> {
  return (await call(() => cairn.GET('/api/v1/search', { params: { query: { q, limit: SEARCH_LIMIT } } }))).data
}
