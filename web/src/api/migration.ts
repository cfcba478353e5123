// Migration from a Salesforce-compatible source over REST: connect (OAuth consent or a token),
// the migration itself (followed live through its event stream while work is under way), the
// analysis report, the configuration, run and cancel, and the issues of a run (paged, filtered).
import { useEffect, useState } from 'react'
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { cairn, call, type Page, type Schemas } from './client.ts'
import { type AnalysisReport, type IssueKind, type MigrationConfig, type MigrationIssue, type MigrationView, type SourceEnvironment } from '../../../src/web-contracts.ts'

// The document shows a migration's configuration, summary and report as open objects, so the app
// reads them as the server's own shapes (type-only exports vanish from the bundle).
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
} from '../../../src/web-contracts.ts'

export type TokenConnection = Schemas['MigrationSource']

const ALL = ['migrations'] as const
const one = (id: string) => ['migrations', id] as const
const report = (id: string) => ['migrations', id, 'report'] as const
const issues = (id: string, filter: IssueFilter) => ['migrations', id, 'issues', filter] as const

/** Something is working on the migration in the background, so it changes without us asking. */
export function isWorking(m: Pick<MigrationView, 'status'> | undefined): boolean {
  return m?.status === 'analyzing' || m?.status === 'running' || m?.status === 'paused'
}

export const reportDownloadUrl = (id: string) => `/api/v1/migration/${id}/report?download=true`
export const issuesCsvUrl = (id: string, kind?: IssueKind | null) => `/api/v1/migration/${id}/issues.csv${kind ? `?kind=${kind}` : ''}`

export function useMigrations(enabled = true) {
  return useInfiniteQuery({
    queryKey: ALL,
    queryFn: ({ pageParam }) => call(() => cairn.GET('/api/v1/migrations', { params: { query: { limit: 20, cursor: pageParam ?? undefined } } })) as Promise<Page<MigrationView>>,
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
    queryFn: () => call(() => cairn.GET('/api/v1/migration/{id}', { params: { path: { id } } })) as Promise<MigrationView>,
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
  return useQuery({ queryKey: report(id), queryFn: async () => (await call(() => cairn.GET('/api/v1/migration/{id}/report', { params: { path: { id } } }))) as unknown as AnalysisReport, enabled, staleTime: Infinity })
}

export interface IssueFilter {
  kind: IssueKind | null
  object: string | null
}

export function useMigrationIssues(id: string, filter: IssueFilter) {
  return useInfiniteQuery({
    queryKey: issues(id, filter),
    queryFn: ({ pageParam }) =>
      call(() =>
        cairn.GET('/api/v1/migration/{id}/issues', {
          params: { path: { id }, query: { limit: 25, kind: filter.kind ?? undefined, object: filter.object ?? undefined, cursor: pageParam ?? undefined } },
        }),
      ) as Promise<Page<MigrationIssue>>,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : null),
  })
}

/** Answers the source platform's consent page; 409 when the operator has not set OAuth up. */
export function useConnectSource() {
  return useMutation({ mutationFn: (environment: SourceEnvironment) => call(() => cairn.POST('/api/v1/migration/connect', { body: { environment } })) })
}

export function useAnalyzeWithToken() {
  const client = useQueryClient()
  return useMutation({ mutationFn: (body: TokenConnection) => call(() => cairn.POST('/api/v1/migration/analyze', { body })) as Promise<MigrationView>, onSuccess: (view) => store(client, view) })
}

export function useSaveConfig(id: string) {
  const client = useQueryClient()
  return useMutation({ mutationFn: (config: MigrationConfig) => call(() => cairn.PUT('/api/v1/migration/{id}/config', { params: { path: { id } }, body: config })) as Promise<MigrationView>, onSuccess: (view) => store(client, view) })
}

/** Starts the import, or the next phase of a phased one. */
export function useRunMigration(id: string) {
  const client = useQueryClient()
  return useMutation({ mutationFn: () => call(() => cairn.POST('/api/v1/migration/run', { body: { migration_id: id } })) as Promise<MigrationView>, onSuccess: (view) => store(client, view) })
}

export function useCancelMigration(id: string) {
  const client = useQueryClient()
  return useMutation({ mutationFn: () => call(() => cairn.POST('/api/v1/migration/{id}/cancel', { params: { path: { id } } })) as Promise<MigrationView>, onSuccess: (view) => store(client, view) })
}
