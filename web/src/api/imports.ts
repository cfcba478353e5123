// CSV imports and exports: start an import (multipart upload), follow it while it runs, and the
// download addresses of an export (the list's query) and of an import's issues.
import { useQuery } from '@tanstack/react-query'
import { cairn, call, type Schemas } from './client.ts'
import type { RecordKind } from '../kinds.ts'

export type Import = Schemas['Import']

export const isRunning = (i: Import | undefined) => i?.status === 'queued' || i?.status === 'running'

export interface ImportRequest {
  kind: RecordKind
  file: File
  mapping: Record<string, string | null>
  dedupeBy: string | null
}

export function startImport({ kind, file, mapping, dedupeBy }: ImportRequest): Promise<Import> {
  const form = new FormData()
  form.append('kind', kind.path)
  form.append('mapping', JSON.stringify(mapping))
  if (dedupeBy) form.append('dedupe_by', dedupeBy)
  // The file last: the server reads the parts in order and the small ones are then already known.
  form.append('file', file, file.name)
  return call(() => cairn.POST('/api/v1/imports', { body: form as never, bodySerializer: (body) => body as unknown as FormData }))
}

/** The import, polled every second while it is queued or running. */
export function useImport(id: string | null) {
  return useQuery({
    queryKey: ['imports', id],
    queryFn: () => call(() => cairn.GET('/api/v1/imports/{id}', { params: { path: { id: id! } } })),
    enabled: id !== null,
    refetchInterval: (q) => (isRunning(q.state.data) ? 1000 : false),
  })
}

/** The mapping of the person's last import of this kind (proposed again for the columns a new file shares). */
export function useLastImportMapping(kind: RecordKind) {
  return useQuery({
    queryKey: ['imports', 'last-mapping', kind.path],
    queryFn: () => call(() => cairn.GET('/api/v1/imports/last-mapping', { params: { query: { kind: kind.path as never } } })),
    staleTime: 0,
  })
}

export const issuesCsvUrl = (id: string) => `/api/v1/imports/${id}/issues.csv`

/** The export of a list: the same query parameters the list page shows. */
export function exportCsvUrl(kind: RecordKind, query: URLSearchParams): string {
  const q = query.toString()
  return `/api/v1/${kind.path}/export.csv${q ? `?${q}` : ''}`
}
