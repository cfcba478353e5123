// A record's change events (GET /api/v1/{kind}/{id}/events, newest first, the page envelope of
// webhook-shaped events). Kept apart so the timeline's other sources never depend on it: a service
// without the endpoint (404 for the route) gives an empty history instead of an error.
import { ApiError, cairn, call, type Page } from '../../../api/client.ts'
import type { RecordKind } from '../../../kinds.ts'

export interface RecordEvent {
  id: string
  seq?: number
  type: string
  timestamp: string
  organization_id: string
  data: { object?: Record<string, unknown>; previous?: Record<string, unknown> }
}

export async function fetchRecordEvents(kind: RecordKind, id: string, limit: number, cursor: string | undefined): Promise<Page<RecordEvent>> {
  try {
    const path = `/api/v1/${kind.path}/{id}/events`
    return (await call(() => cairn.GET(path as never, { params: { path: { id }, query: { limit, cursor } } } as never))) as Page<RecordEvent>
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.code === 'not_found' && /route/i.test(error.message)) return { data: [], next_cursor: null, has_more: false }
    throw error
  }
}
