/**
 * What the import routes share: their OpenAPI tag, scope (importing is writing: every route needs
 * crm:write, as the batch endpoint does) and error answers, and an import as the API shows it.
 */
import { requireScopes } from '../http/auth.ts'
import { problemSchema } from '../http/schemas.ts'
import { IMPORT_STATUSES, type ImportRow } from './import.repository.ts'
import { DEDUPE_KEYS, importKinds, kindOfImport } from './import-request.ts'

export const tags = ['Imports']
export const write = requireScopes('crm:write')
export const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

export const importSchema = {
  title: 'Import',
  type: 'object',
  required: ['id', 'kind', 'status', 'status_reason', 'file_name', 'file_bytes', 'total_rows', 'processed', 'created', 'updated', 'failed', 'issue_count', 'mapping', 'dedupe_by', 'created_at', 'started_at', 'finished_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: importKinds.map((k) => k.path), description: 'The kind of records the file holds.' },
    status: { type: 'string', enum: [...IMPORT_STATUSES], description: '`queued` -> `running` -> `completed` | `completed_with_errors` (some rows are issues) | `failed` (see status_reason).' },
    status_reason: { type: ['string', 'null'], description: 'Why a failed import failed.' },
    file_name: { type: ['string', 'null'] },
    file_bytes: { type: 'integer' },
    total_rows: { type: 'integer', description: 'Data rows in the file (blank rows not counted).' },
    processed: { type: 'integer', description: 'Rows read so far.' },
    created: { type: 'integer', description: 'Records created.' },
    updated: { type: 'integer', description: 'Existing records updated (matched by dedupe_by).' },
    failed: { type: 'integer', description: 'Rows not imported: each has at least one issue.' },
    issue_count: { type: 'integer', description: 'Issues found (a row may have several).' },
    mapping: { type: 'object', additionalProperties: { type: ['string', 'null'] }, description: 'Column -> field used (null: the column was not imported).' },
    dedupe_by: { type: ['string', 'null'], enum: [...DEDUPE_KEYS, null] },
    created_at: { type: 'string', format: 'date-time' },
    started_at: { type: ['string', 'null'], format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const

export const importPageSchema = {
  title: 'ImportPage',
  type: 'object',
  required: ['data', 'next_cursor', 'has_more'],
  properties: { data: { type: 'array', items: importSchema }, next_cursor: { type: ['string', 'null'], format: 'uuid' }, has_more: { type: 'boolean' } },
} as const

export const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null)

export function importView(row: ImportRow) {
  return {
    id: row.id,
    kind: kindOfImport(row.kind).path,
    status: row.status,
    status_reason: row.status_reason,
    file_name: row.file_name,
    file_bytes: row.file_bytes,
    total_rows: row.total_rows,
    processed: row.processed,
    created: row.created,
    updated: row.updated,
    failed: row.failed,
    issue_count: row.issue_count,
    mapping: row.mapping,
    dedupe_by: row.dedupe_by,
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  }
}

export interface ImportRouteOptions {
  /** Tells this process's runner that an import is waiting. */
  wake(): void
  now(): Date
}
