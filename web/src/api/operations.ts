// History and undo over REST: a record's changes (GET /{kind}/{id}/history), the organization's
// operations (GET /operations: administrators see everyone's, members their own), one operation,
// and its revert (POST /operations/{id}/revert; a large one runs in the background and GET on the
// same path follows it until it ends).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { cairn, call, type Page, type Schemas } from './client.ts'
import type { paths } from './cairn-api.d.ts'
import type { RecordKind } from '../kinds.ts'

export type HistoryEntry = Schemas['HistoryEntry']
export type Operation = Schemas['Operation']
export type RevertStatus = Schemas['RevertStatus']
export type Actor = Schemas['HistoryActor']
export type Channel = Actor['channel']
export type Conflict = RevertStatus['conflicts'][number]

/** GET /operations' filters: by API client, person, channel, and since when (RFC 3339). */
export type OperationFilters = Omit<NonNullable<paths['/api/v1/operations']['get']['parameters']['query']>, 'limit' | 'cursor'>

const OPERATIONS = ['operations'] as const
const operationKey = (id: string) => [...OPERATIONS, 'one', id] as const
const revertKey = (id: string) => [...OPERATIONS, 'revert', id] as const

export const historyKey = (kind: RecordKind, id: string) => ['records', kind.path, 'history', id] as const

export function useRecordHistory(kind: RecordKind, id: string) {
  return useInfiniteQuery({
    queryKey: historyKey(kind, id),
    queryFn: ({ pageParam }) =>
      // Every kind answers the same shape; the path is typed by one of them.
      call(() => cairn.GET(`/api/v1/${kind.path}/{id}/history` as '/api/v1/accounts/{id}/history', { params: { path: { id }, query: { limit: 25, cursor: pageParam } } })) as Promise<Page<HistoryEntry>>,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  })
}

export function useOperations(filters: OperationFilters) {
  return useInfiniteQuery({
    queryKey: [...OPERATIONS, 'list', filters],
    queryFn: ({ pageParam }) => call(() => cairn.GET('/api/v1/operations', { params: { query: { limit: 50, cursor: pageParam, ...filters } } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  })
}

export const isReverting = (s: RevertStatus | null | undefined) => s?.state === 'running'

export function useOperation(id: string | null) {
  return useQuery({
    queryKey: operationKey(id ?? ''),
    queryFn: () => call(() => cairn.GET('/api/v1/operations/{id}', { params: { path: { id: id! } } })),
    enabled: id !== null,
    // While its revert runs, the operation's own state follows it.
    refetchInterval: (q) => (isReverting(q.state.data?.revert) ? 1000 : false),
  })
}

/** The revert of an operation, polled every second while it runs. */
export function useRevertStatus(operationId: string, enabled: boolean) {
  return useQuery({
    queryKey: revertKey(operationId),
    queryFn: () => call(() => cairn.GET('/api/v1/operations/{id}/revert', { params: { path: { id: operationId } } })).then((a) => a.data),
    enabled,
    refetchInterval: (q) => (isReverting(q.state.data) ? 1000 : false),
  })
}

/**
 * Starts (or, repeated, finds again) the revert of an operation. `force` also sets back fields
 * changed since; it counts only on the first request (an operation has one revert).
 */
export function useRevert(operationId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (force: boolean) => call(() => cairn.POST('/api/v1/operations/{id}/revert', { params: { path: { id: operationId } }, body: { force } })).then((a) => a.data),
    onSuccess: (status) => {
      client.setQueryData(revertKey(operationId), status)
    },
  })
}

/** Once a revert has ended: records, histories, imports and operations may all have changed. */
export function refreshAfterRevert(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: ['records'] })
  void client.invalidateQueries({ queryKey: OPERATIONS })
  void client.invalidateQueries({ queryKey: ['imports'] })
}
