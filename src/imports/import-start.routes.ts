/**
 * Starting an import: `POST /api/v1/imports` (multipart: `kind`, `file`, optional `mapping` and
 * `dedupe_by`) stores the file in chunks as it arrives and answers 202 with the queued import; this
 * process's runner is woken.
 */
import { writeTransaction } from '../db/write-transaction.ts'
import type { FastifyInstance } from 'fastify'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { validatorCompiler } from '../http/validation.ts'
import { ValidationFailed } from '../shared/errors.ts'
import { uuidv7 } from '../shared/ids.ts'
import { recordCustomFields } from '../records/index.ts'
import { DEDUPE_KEYS, importKinds, planImport } from './import-request.ts'
import { findImport, insertImport, deleteChunks } from './import.repository.ts'
import { readUpload } from './upload.ts'
import { errors, importSchema, importView, tags, write, type ImportRouteOptions } from './import-route-kit.ts'

export function importStartRoutes(fastify: FastifyInstance, opts: ImportRouteOptions): void {
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
}
