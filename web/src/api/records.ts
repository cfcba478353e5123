// The record calls every kind shares (list a page, get one, create, change, delete), typed by the
// generated paths. A kind's `path` is one of the collections below: the kind definitions that
// give the app its kinds also generate the OpenAPI document the types come from.
import { cairn, call, type Page } from './client.ts'
import type { CrmRecord, RecordKind } from '../kinds.ts'
import type { operations } from './cairn-api.d.ts'

type Collection = 'accounts' | 'contacts' | 'leads' | 'opportunities' | 'products' | 'cases' | 'activities'
type ListPath = `/api/v1/${Collection}`
type OnePath = `/api/v1/${Collection | 'case-comments'}/{id}`

/** limit, cursor, q, ids, updated_since and the kind's filterable fields (checked by the server). */
export type ListQuery = NonNullable<operations['listAccounts']['parameters']['query']> & Record<string, string | number | undefined>

type CountPath = `/api/v1/${Collection}/count`

const listPath = (kind: RecordKind) => `/api/v1/${kind.path}` as ListPath
const onePath = (kind: RecordKind) => `/api/v1/${kind.path}/{id}` as OnePath

export function fetchRecordPage(kind: RecordKind, query: ListQuery): Promise<Page<CrmRecord>> {
  // An empty filter box means no filter, not a search for "".
  const present = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as ListQuery
  return call(() => cairn.GET(listPath(kind), { params: { query: present } }))
}

/** The exact number of records the list with the same filters pages through (GET /{kind}/count). */
export function fetchRecordCount(kind: RecordKind, query: Record<string, string | undefined>): Promise<{ count: number }> {
  const present = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''))
  return call(() => cairn.GET(`/api/v1/${kind.path}/count` as CountPath, { params: { query: present as never } }))
}

export function fetchRecord(kind: RecordKind, id: string): Promise<CrmRecord> {
  return call(() => cairn.GET(onePath(kind), { params: { path: { id } } }))
}

/**
 * A write answers the record as the caller may read it (`*Written`: only id and times without the
 * read scopes). A browser session holds every scope, so the app always gets the whole record.
 */
const whole = (written: Promise<{ id: string }>) => written as Promise<CrmRecord>

// Bodies are built from the kind's field definitions by the forms; the server validates them.
export function createRecord(kind: RecordKind, body: Record<string, unknown>): Promise<CrmRecord> {
  return whole(call(() => cairn.POST(listPath(kind), { body: body as never })))
}

export function updateRecord(kind: RecordKind, id: string, body: Record<string, unknown>): Promise<CrmRecord> {
  return whole(call(() => cairn.PATCH(onePath(kind), { params: { path: { id } }, body: body as never })))
}

export function deleteRecord(kind: RecordKind, id: string): Promise<void> {
  return call(() => cairn.DELETE(onePath(kind), { params: { path: { id } } }))
}
