// History and undo over REST: a record's changes (GET /{kind}/{id}/history), the organization's
// operations (GET /operations, admins see all, members their own), one operation, and its revert
// (POST /operations/{id}/revert starts it in the background; GET follows it until it ends).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { cairn, call, type Page } from './client.ts'
import type { RecordKind } from '../kinds.ts'

export type Channel = 'app' | 'api' | 'mcp' | 'import' | 'migration' | 'system'
export interface Actor {
  channel: Channel
  user: { id: string; name: string; email: string } | null
  client: { id: string; name: string } | null
}
export interface HistoryEntry {
  id: string
  at: string
  action: string
  operation_id: string
  actor: Actor
  changes: { field: string; label: string; old: unknown; new: unknown }[]
}
export interface Conflict {
  kind: string
  record_id: string
  field?: string | null
  reason: string
}
export interface RevertStatus {
  operation_id: string
  reverts: string
  state: 'running' | 'succeeded' | 'failed'
  progress: { done: number; total: number }
  conflicts: Conflict[]
  reverted: number
}
export interface Operation {
  id: string
  started_at: string
  ended_at: string | null
  actor: Actor
  channel: Channel
  counts: { created: number; updated: number; deleted: number; restored: number }
  kinds: string[]
  reverted_by: string | null
  reverts: string | null
  revert: RevertStatus | null
}

// Until the service's OpenAPI document names these routes, they are called by path and typed here.
function get<T>(path: string, query?: object): Promise<T> {
  return call(() => cairn.GET(path as never, { params: { query } } as never)) as Promise<T>
}
function post<T>(path: string, body: object): Promise<T> {
  return call(() => cairn.POST(path as never, { body } as never)) as Promise<T>
}

export interface OperationFilters {
  client_id?: string
  user_id?: string
  channel?: string
  /** RFC 3339: operations started at or after it. */
  since?: string
}

const OPERATIONS = ['operations'] as const
const operationKey = (id: string) => [...OPERATIONS, 'one', id] as const
const revertKey = (id: string) => [...OPERATIONS, 'revert', id] as const

export const historyKey = (kind: RecordKind, id: string) => ['records', kind.path, 'history', id] as const

export function useRecordHistory(kind: RecordKind, id: string) {
  return useInfiniteQuery({
    queryKey: historyKey(kind, id),
    queryFn: ({ pageParam }) =>
      get<Page<HistoryEntry>>(`/api/v1/${kind.path}/${encodeURIComponent(id)}/history`, { limit: 25, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  })
}

export function useOperations(filters: OperationFilters) {
  return useInfiniteQuery({
    queryKey: [...OPERATIONS, 'list', filters],
    queryFn: ({ pageParam }) => get<Page<Operation>>('/api/v1/operations', { limit: 50, cursor: pageParam, ...filters }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  })
}

const revertPath = (id: string) => `/api/v1/operations/${encodeURIComponent(id)}/revert`

export const isReverting = (s: RevertStatus | null | undefined) => s?.state === 'running'

export function useOperation(id: string | null) {
  return useQuery({
    queryKey: operationKey(id ?? ''),
    queryFn: () => get<Operation>(`/api/v1/operations/${encodeURIComponent(id!)}`),
    enabled: id !== null,
    // While its revert runs, the operation's own state follows it.
    refetchInterval: (q) => (isReverting(q.state.data?.revert) ? 1000 : false),
  })
}

/** The revert of an operation, polled every second while it runs; null until one was asked for. */
export function useRevertStatus(operationId: string, enabled: boolean) {
  return useQuery({
    queryKey: revertKey(operationId),
    queryFn: () => get<{ data: RevertStatus }>(revertPath(operationId)).then((a) => a.data),
    enabled,
    refetchInterval: (q) => (isReverting(q.state.data) ? 1000 : false),
  })
}

/** Starts (or, repeated, finds again) the revert of an operation; `force` also overwrites fields changed since. */
export function useRevert(operationId: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (force: boolean) => post<{ data: RevertStatus }>(revertPath(operationId), { force }).then((a) => a.data),
    onSuccess: (status) => {
      client.setQueryData(revertKey(operationId), status)
    },
  })
}

/** Once a revert has ended: records, histories and operations may all have changed. */
export function refreshAfterRevert(client: ReturnType<typeof useQueryClient>): void {
  void client.invalidateQueries({ queryKey: ['records'] })
  void client.invalidateQueries({ queryKey: OPERATIONS })
  void client.invalidateQueries({ queryKey: ['imports'] })
}
