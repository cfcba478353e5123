/**
 * The imports API: `POST /api/v1/imports` (multipart: `kind`, `file`, optional `mapping` and
 * `dedupe_by`) answers 202 with the queued import; `GET /api/v1/imports/{id}` is polled for its
 * progress; `GET /api/v1/imports/{id}/issues.csv` downloads its per-row issues; `GET /api/v1/imports`
 * lists the organization's imports. Importing is writing: every route needs crm:write, as the batch
 * endpoint does (docs/imports.md).
 */
import { writeTransaction } from '../db/write-transaction.ts'
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import multipart from '@fastify/multipart'
import { requireScopes } from '../http/auth.ts'
import { idParamsSchema, pageQuerySchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { validatorCompiler } from '../http/validation.ts'
import { NotFound, ValidationFailed } from '../shared/errors.ts'
import { uuidv7 } from '../shared/ids.ts'
import { csvCell, csvLine } from '../shared/csv-cell.ts'
import { recordCustomFields } from '../records/index.ts'
import { DEDUPE_KEYS, importKinds, planImport } from './import-request.ts'
import { findImport, insertImport, issuesAfter, listImports, deleteChunks, IMPORT_STATUSES, type ImportRow } from './import.repository.ts'
import { readUpload } from './upload.ts'
import { kindOfImport } from './import-request.ts'

const tags = ['Imports']
const write = requireScopes('crm:write')
const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

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

const importPageSchema = {
  title: 'ImportPage',
  type: 'object',
  required: ['data', 'next_cursor', 'has_more'],
  properties: { data: { type: 'array', items: importSchema }, next_cursor: { type: ['string', 'null'], format: 'uuid' }, has_more: { type: 'boolean' } },
} as const

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null)

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

/** The issues file, read a page at a time as the client takes it. */
function issuesCsv(app: FastifyInstance, orgId: string, importId: string): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(['row', 'column', 'field', 'message'])
    let after: { row: number; ordinal: number } | null = null
    for (;;) {
      const page = await issuesAfter(app.db, orgId, importId, after, 1000)
      if (page.length === 0) return
      yield page.map((i) => csvLine([csvCell(i.row_number, true), csvCell(i.column_name), csvCell(i.field), csvCell(i.message)])).join('')
      const last = page[page.length - 1]
      after = { row: last.row_number, ordinal: last.ordinal }
    }
  }
  return Readable.from(lines(), { objectMode: false })
}

export interface ImportRouteOptions {
  /** Tells this process's runner that an import is waiting. */
  wake(): void
  now(): Date
}

export async function importRoutes(fastify: FastifyInstance, opts: ImportRouteOptions): Promise<void> {
  // Only this plugin's routes read multipart bodies; the file's size limit is the operator's setting.
  await fastify.register(multipart, { limits: { fileSize: fastify.config.importMaxFileBytes } })
  const app = fastify.withTypeProvider<TypedRoutes>()

  app.post(
    '/imports',
    {
      schema: {
        tags,
        operationId: 'startImport',
        summary: 'Import a CSV file of one kind of record',
        description:
          'multipart/form-data with `kind` (e.g. `contacts`), `file` (CSV, UTF-8, header row first), optionally `mapping` (JSON object: column -> field, or null to leave a column out; ' +
          'without it the columns are mapped from the header) and `dedupe_by` (`email`, `domain`, `name` or `src_id`: a row matching a record updates it). ' +
          'Answers 202 with the queued import; poll GET /imports/{id}. docs/imports.md has the rules.',
        consumes: ['multipart/form-data'],
        body: {
          type: 'object',
          required: ['kind', 'file'],
          properties: {
            kind: { type: 'string', enum: importKinds.map((k) => k.path) },
            file: { type: 'string', format: 'binary', description: 'The CSV file.' },
            mapping: { type: 'string', description: 'JSON object: column name -> field name (or null).' },
            dedupe_by: { type: 'string', enum: [...DEDUPE_KEYS] },
          },
        },
        response: { 202: importSchema, ...errors, 413: problemSchema, 415: problemSchema },
      },
      // The multipart body is read by the handler (a stream), not validated as a JSON object.
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route)),
      onRequest: write,
    },
    async (request, reply) => {
      const auth = request.auth!
      const uploadId = uuidv7(opts.now())
      const upload = await readUpload(request, app.db, auth.orgId, uploadId, app.config.importMaxFileBytes, opts.now)
      let id = uploadId
      try {
        const file = upload.file
        if (!file) throw new ValidationFailed('Attach the CSV file as the `file` part.', [{ field: 'file', message: 'is required' }])
        const plan = planImport(upload.fields, file.header, await recordCustomFields.listCustomFieldDefinitions(app.db, auth.orgId))
        // A keyed retry whose first attempt committed gets that import back; the file it sent again is dropped.
        id = await writeTransaction(app.db, auth.receipt, async (trx) => {
          await insertImport(trx, {
            org_id: auth.orgId,
            id: uploadId,
            kind: plan.kind.name,
            file_name: file.name,
            file_bytes: file.bytes,
            total_rows: file.rows,
            columns: file.header,
            mapping: plan.mapping,
            dedupe_by: plan.dedupeBy,
            created_by: auth.userId,
            actor_scopes: [...auth.scopes],
            actor_role: auth.role,
            actor_via: auth.via,
            actor_client_id: auth.clientId ?? null,
            created_at: opts.now(),
          })
          return uploadId
        })
      } catch (err) {
        await deleteChunks(app.db, auth.orgId, uploadId)
        throw err
      }
      if (id !== uploadId) await deleteChunks(app.db, auth.orgId, uploadId)
      const row = (await findImport(app.db, auth.orgId, id))!
      opts.wake()
      reply.header('location', `/api/v1/imports/${id}`)
      return reply.status(202).send(importView(row))
    },
  )

  app.get(
    '/imports',
    { schema: { tags, operationId: 'listImports', summary: 'List imports, newest first', querystring: pageQuerySchema, response: { 200: importPageSchema, ...errors } }, onRequest: write },
    async (request) => {
      const limit = request.query.limit ?? 50
      const rows = await listImports(app.db, request.auth!.orgId, { limit, cursor: request.query.cursor })
      const page = rows.slice(0, limit)
      const more = rows.length > limit
      return { data: page.map(importView), next_cursor: more ? page[page.length - 1].id : null, has_more: more }
    },
  )

  app.get(
    '/imports/:id',
    { schema: { tags, operationId: 'getImport', summary: 'Get an import and its progress', params: idParamsSchema, response: { 200: importSchema, ...errors } }, onRequest: write },
    async (request) => {
      const row = await findImport(app.db, request.auth!.orgId, request.params.id)
      if (!row) throw new NotFound('Import')
      return importView(row)
    },
  )

  app.get(
    '/imports/:id/issues.csv',
    {
      schema: {
        tags,
        operationId: 'exportImportIssues',
        summary: "Download an import's issues as CSV",
        description: 'One line per issue, in file order: row (as a spreadsheet numbers it, the header being row 1), column, field, message.',
        params: idParamsSchema,
        response: { 200: { description: 'The CSV file.', content: { 'text/csv': { schema: { type: 'string' } } } }, ...errors },
      },
      onRequest: write,
    },
    async (request, reply) => {
      const row = await findImport(app.db, request.auth!.orgId, request.params.id)
      if (!row) throw new NotFound('Import')
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="import-issues-${row.id}.csv"`)
      return app.longLived.download(request, reply, 'import_issues', issuesCsv(app, row.org_id, row.id))
    },
  )
}
