/**
 * Reading imports: the organization's list, newest first, and one import with its progress (polled
 * by clients while it runs).
 */
import type { FastifyInstance } from 'fastify'
import { idParamsSchema, pageQuerySchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { NotFound } from '../shared/errors.ts'
import { findImport, listImports } from './import.repository.ts'
import { errors, importPageSchema, importSchema, importView, tags, write } from './import-route-kit.ts'

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
    '/imports/:id',
    { schema: { tags, operationId: 'getImport', summary: 'Get an import and its progress', params: idParamsSchema, response: { 200: importSchema, ...errors } }, onRequest: write },
    async (request) => {
      const row = await findImport(app.db, request.auth!.orgId, request.params.id)
      if (!row) throw new NotFound('Import')
      return importView(row)
    },
  )
}
