// Migration from a Salesforce-compatible source over REST: connect (OAuth consent or a token),
// the migration itself (followed live through its event stream while work is under way), the
// analysis report, the configuration, run and cancel, and the issues of a run (paged, filtered).
import { useEffect, useState } from 'react'
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api, queryString, type Page } from './client.ts'
import type { AnalysisReport, IssueKind, MigrationConfig, MigrationIssue, MigrationView, SourceEnvironment } from '../../../src/migration/migration.types.ts'

// The shapes are the server's own (type-only exports vanish from the bundle).
export type {
  AnalysisReport,
  FieldMapping,
  FieldOverride,
  IssueKind,
  MigrationConfig,
  MigrationIssue,
  MigrationStatus,
  MigrationView,
  ObjectAnalysis,
  ObjectProgress,
  RiskItem,
  SourceEnvironment,
  ValidationRow,
} from '../../../src/migration/migration.types.ts'

export interface TokenConnection {
  src_instance_url: string
  src_access_token: string
  src_refresh_token?: string
  environment?: SourceEnvironment
}

const ALL = ['migrations'] as const
const one = (id: string) => ['migrations', id] as const
const report = (id: string) => ['migrations', id, 'report'] as const
const issues = (id: string, filter: IssueFilter) => ['migrations', id, 'issues', filter] as const

/** Something is working on the migration in the background, so it changes without us asking. */
export function isWorking(m: Pick<MigrationView, 'status'> | undefined): boolean {
  return m?.status === 'analyzing' || m?.status === 'running' || m?.status === 'paused'
}

export const reportDownloadUrl = (id: string) => `/api/v1/migration/${id}/report?download=true`
export const issuesCsvUrl = (id: string, kind?: IssueKind | null) => `/api/v1/migration/${id}/issues.csv${queryString({ kind })}`

export function useMigrations(enabled = true) {
  return useInfiniteQuery({
    queryKey: ALL,
    queryFn: ({ pageParam }) => api.get<Page<MigrationView>>(`/migrations${queryString({ limit: 20, cursor: pageParam })}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : null),
    enabled,
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.data.some(isWorking)) ? 5000 : false),
  })
}

function store(client: QueryClient, view: MigrationView): void {
  client.setQueryData(one(view.id), view)
  void client.invalidateQueries({ queryKey: ALL, exact: true })
}

/**
 * One migration. While work is under way it follows GET /migration/{id}/events, which pushes the
 * whole migration on every change; whenever that stream is not open (no EventSource, or
 * reconnecting after a drop) it polls every 2 seconds instead, so progress never stalls.
 */
export function useMigration(id: string) {
  const client = useQueryClient()
  const [streaming, setStreaming] = useState(false)
  const query = useQuery({
    queryKey: one(id),
    queryFn: () => api.get<MigrationView>(`/migration/${id}`),
    refetchInterval: (q) => (isWorking(q.state.data) && !streaming ? 2000 : false),
  })
  const working = isWorking(query.data)
  useEffect(() => {
    if (!working || typeof EventSource === 'undefined') return
    const source = new EventSource(`/api/v1/migration/${id}/events`)
    source.addEventListener('open', () => setStreaming(true))
    source.addEventListener('migration', (event) => store(client, JSON.parse((event as MessageEvent<string>).data) as MigrationView))
    source.addEventListener('end', () => {
      source.close()
      setStreaming(false)
    })
    // EventSource reconnects by itself (the server asks for 2 s); polling covers the gap.
    source.addEventListener('error', () => setStreaming(false))
    return () => {
      source.close()
      setStreaming(false)
    }
  }, [id, working, client])
  return query
}

/** The analysis report never changes once written; it exists from `analyzed` on. */
export function useMigrationReport(id: string, enabled: boolean) {
  return useQuery({ queryKey: report(id), queryFn: () => api.get<AnalysisReport>(`/migration/${id}/report`), enabled, staleTime: Infinity })
}

export interface IssueFilter {
  kind: IssueKind | null
  object: string | null
}

export function useMigrationIssues(id: string, filter: IssueFilter) {
  return useInfiniteQuery({
    queryKey: issues(id, filter),
    queryFn: ({ pageParam }) =>
      api.get<Page<MigrationIssue>>(`/migration/${id}/issues${queryString({ limit: 25, kind: filter.kind, object: filter.object, cursor: pageParam })}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : null),
  })
}

/** Answers the source platform's consent page; 409 when the operator has not set OAuth up. */
export function useConnectSource() {
  return useMutation({ mutationFn: (environment: SourceEnvironment) => api.post<{ authorize_url: string }>('/migration/connect', { environment }) })
}

export function useAnalyzeWithToken() {
  const client = useQueryClient()
  return useMutation({ mutationFn: (body: TokenConnection) => api.post<MigrationView>('/migration/analyze', body), onSuccess: (view) => store(client, view) })
}

export function useSaveConfig(id: string) {
  const client = useQueryClient()
  return useMutation({ mutationFn: (config: MigrationConfig) => api.put<MigrationView>(`/migration/${id}/config`, config), onSuccess: (view) => store(client, view) })
}

/** Starts the import, or the next phase of a phased one. */
export function useRunMigration(id: string) {
  const client = useQueryClient()
  return useMutation({ mutationFn: () => api.post<MigrationView>('/migration/run', { migration_id: id }), onSuccess: (view) => store(client, view) })
}

export function useCancelMigration(id: string) {
  const client = useQueryClient()
  return useMutation({ mutationFn: () => api.post<MigrationView>(`/migration/${id}/cancel`), onSuccess: (view) => store(client, view) })
}
