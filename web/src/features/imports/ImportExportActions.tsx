// The Import and Export buttons of a list page. Export downloads the list as it is shown (its
// search, filters and sort, every page); Import opens the import dialog, loaded on first use.
import { lazy, Suspense, useState } from 'react'
import { Button } from '@mantine/core'
import { IconDownload, IconUpload } from '@tabler/icons-react'
import { useSearchParams } from 'react-router'
import { exportCsvUrl } from '../../api/imports.ts'
import type { RecordKind } from '../../kinds.ts'

const ImportDialog = lazy(() => import('./ImportDialog.tsx'))

/** The page's query parameters that are the list's: search, filters (also `[gte]`-style ranges), sort. */
function listQuery(kind: RecordKind, params: URLSearchParams): URLSearchParams {
  const names = new Set(['q', 'sort', 'updated_since', 'created_at', 'updated_at', ...kind.fields.map((f) => f.name)])
  const out = new URLSearchParams()
  for (const [name, value] of params) {
    const field = name.replace(/\[[a-z]+\]$/, '')
    if (value !== '' && (names.has(field) || field.startsWith('custom_fields.'))) out.append(name, value)
  }
  return out
}

export function ImportExportActions({ kind }: { kind: RecordKind }) {
  const [searchParams] = useSearchParams()
  // `?import=1` (the overview's first-run link) opens the dialog at once.
  const [importing, setImporting] = useState(searchParams.get('import') === '1')
  return (
    <>
      <Button variant="default" leftSection={<IconUpload size={16} />} onClick={() => setImporting(true)}>
        Import
      </Button>
      <Button variant="default" component="a" href={exportCsvUrl(kind, listQuery(kind, searchParams))} download leftSection={<IconDownload size={16} />}>
        Export
      </Button>
      {importing && (
        <Suspense fallback={null}>
          <ImportDialog kind={kind} onClose={() => setImporting(false)} />
        </Suspense>
      )}
    </>
  )
}
