// TanStack Query hooks over the REST API: the signed-in person, record lists (cursor pages),
// single records, and the create/update/delete mutations with their cache updates.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { cairn, call, setCsrfToken, type Schemas } from './client.ts'
import type { CrmRecord, RecordKind } from '../kinds.ts'
import { batchedRecord } from './record-batch.ts'
import { createRecord, deleteRecord, fetchRecord, fetchRecordPage, updateRecord } from './records.ts'

export type Me = Schemas['Me']

export const PAGE_SIZE = 50

export function useMe() {
  return useQuery({
    queryKey: ['me'],
    queryFn: async () => {
      const me = await call(() => cairn.GET('/api/v1/me'))
      setCsrfToken(me.csrf_token ?? null)
      return me
    },
    staleTime: 5 * 60_000,
  })
}

export function useSwitchOrganization() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (organizationId: string) => call(() => cairn.POST('/api/v1/me/active-organization', { body: { organization_id: organizationId } })),
    onSuccess: () => {
      client.clear()
    },
  })
}

export type ListParams = Record<string, string | undefined>

export function recordListKey(kind: RecordKind, params: ListParams = {}) {
  return ['records', kind.path, 'list', params] as const
}

export function useRecordList(kind: RecordKind, params: ListParams, enabled = true) {
  return useInfiniteQuery({
    queryKey: recordListKey(kind, params),
    queryFn: ({ pageParam }) => fetchRecordPage(kind, { limit: PAGE_SIZE, ...params, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
    enabled,
  })
}

/** A short list for pickers (reference selects). */
export function useRecordOptions(kind: RecordKind, q: string) {
  return useQuery({
    queryKey: ['records', kind.path, 'options', q],
    queryFn: () => fetchRecordPage(kind, { limit: 20, q: q || undefined }),
    staleTime: 30_000,
  })
}

export function recordKey(kind: RecordKind, id: string) {
  return ['records', kind.path, 'one', id] as const
}

export function useRecord(kind: RecordKind, id: string | null | undefined) {
  return useQuery({
    queryKey: recordKey(kind, id ?? ''),
    queryFn: () => fetchRecord(kind, id!),
    enabled: Boolean(id),
    staleTime: 30_000,
  })
}

/** A record named by a reference (tables, chips): fetched with the others of its tick (record-batch.ts). */
export function useReferencedRecord(kind: RecordKind, id: string) {
  return useQuery({ queryKey: recordKey(kind, id), queryFn: () => batchedRecord(kind, id), staleTime: 30_000 })
}

/** After a change: put the fresh record in the cache and refetch every list of its kind. */
export function storeRecord(client: QueryClient, kind: RecordKind, record: CrmRecord): void {
  client.setQueryData(recordKey(kind, record.id), record)
  void client.invalidateQueries({ queryKey: ['records', kind.path, 'list'] })
  void client.invalidateQueries({ queryKey: ['records', kind.path, 'options'] })
}

export function useCreateRecord(kind: RecordKind) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => createRecord(kind, body),
    onSuccess: (record) => storeRecord(client, kind, record),
  })
}

export function useUpdateRecord(kind: RecordKind, id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => updateRecord(kind, id, body),
    onSuccess: (record) => storeRecord(client, kind, record),
  })
}

export function useDeleteRecord(kind: RecordKind, id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => deleteRecord(kind, id),
    onSuccess: () => {
      client.removeQueries({ queryKey: recordKey(kind, id) })
      void client.invalidateQueries({ queryKey: ['records', kind.path] })
    },
  })
}
