/**
 * Reading imports: the organization's list, newest first, one import with its progress (polled
 * by clients while it runs), and the mapping the caller last used for a kind (what the app proposes
 * again).
 */
import type { FastifyInstance } from 'fastify'
import { idParamsSchema, pageQuerySchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { NotFound } from '../shared/errors.ts'
import { findImport, lastMapping, listImports } from './import.repository.ts'
import { importKind, importKinds } from './import-request.ts'
import { errors, importPageSchema, importSchema, importView, iso, tags, write } from './import-route-kit.ts'

export function importReadRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypedRoutes>()

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
    '/imports/last-mapping',
    {
      schema: {
        tags,
        operationId: 'getLastImportMapping',
        summary: 'The mapping of your last import of a kind',
        description:
          'The column -> field mapping of the last import of this kind the caller started in the organization (`mapping: null` when there is none). ' +
          'The app proposes it again for the columns a new file shares with it; `POST /imports` without a mapping still proposes from the header alone.',
        querystring: { type: 'object', additionalProperties: false, required: ['kind'], properties: { kind: { type: 'string', enum: importKinds.map((k) => k.path) } } },
        response: {
          200: {
            title: 'LastImportMapping',
            type: 'object',
            required: ['kind', 'mapping', 'import_id', 'created_at'],
            properties: {
              kind: { type: 'string' },
              mapping: { type: ['object', 'null'], additionalProperties: { type: ['string', 'null'] }, description: 'Column -> field (null: the column was left out); null when the caller has not imported this kind.' },
              import_id: { type: ['string', 'null'], format: 'uuid' },
              created_at: { type: ['string', 'null'], format: 'date-time' },
            },
          },
          ...errors,
        },
      },
      onRequest: write,
    },
    async (request) => {
      const kind = importKind(request.query.kind)
      const last = request.auth!.userId ? await lastMapping(app.db, request.auth!.orgId, request.auth!.userId, kind.name) : null
      return { kind: kind.path, mapping: last?.mapping ?? null, import_id: last?.id ?? null, created_at: iso(last?.created_at ?? null) }
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
}
