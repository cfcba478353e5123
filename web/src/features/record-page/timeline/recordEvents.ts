// A record's change events (GET /api/v1/{kind}/{id}/events: the journal, newest first, each the
// webhook body shaped for the caller). Only the kinds of the event catalogue have a history;
// products and activities have none, so the timeline asks nothing for them.
import { EVENT_CATALOGUE } from '../../../../../src/web-contracts.ts'
import { cairn, call, type Page, type Schemas } from '../../../api/client.ts'
import type { RecordKind } from '../../../kinds.ts'

export type RecordEvent = Schemas['Event']

type EventsPath = '/api/v1/accounts/{id}/events' | '/api/v1/contacts/{id}/events' | '/api/v1/leads/{id}/events' | '/api/v1/opportunities/{id}/events' | '/api/v1/cases/{id}/events'

export function hasEvents(kind: RecordKind): boolean {
  return Object.hasOwn(EVENT_CATALOGUE, kind.name)
}

export function fetchRecordEvents(kind: RecordKind, id: string, limit: number, cursor: string | undefined): Promise<Page<RecordEvent>> {
  const path = `/api/v1/${kind.path}/{id}/events` as EventsPath
  return call(() => cairn.GET(path, { params: { path: { id }, query: { limit, cursor } } }))
}
