/**
 * Reading migrations: the organization's list, one migration (state, configuration, progress per
 * object, validation), and its analysis report.
 */
import type { FastifyInstance } from 'fastify'
import { pageQuerySchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { NotFound } from '../shared/errors.ts'
import { listMigrations } from './migration.repository.ts'
import { migrationPageSchema, migrationParams, migrationSchema, reportQuerySchema, reportSchema } from './migration.schemas.ts'
import { migrationViewOf } from './migration-view.ts'
import { listObjectsOfMigrations } from './progress.repository.ts'
import { keysetPage } from '../http/keyset-page.ts'
import { errors, read, tags, type MigrationRouteKit } from './migration-route-kit.ts'

export function migrationReadRoutes(fastify: FastifyInstance, { view, existing }: MigrationRouteKit): void {
  const app = fastify.withTypeProvider<TypedRoutes>()

  app.get(
    '/migrations',
    { schema: { tags, operationId: 'listMigrations', summary: 'List the migrations of the organization', description: 'Newest first; keyset-paged.', querystring: pageQuerySchema, response: { 200: migrationPageSchema, ...errors } }, onRequest: read },
    async (request) => {
      const { limit = 50, cursor } = request.query
      const { data, has_more, next_cursor } = keysetPage(await listMigrations(app.db, request.auth!.orgId, limit, cursor), limit)
      const objects = await listObjectsOfMigrations(app.db, request.auth!.orgId, data.map((m) => m.id))
      return { data: data.map((m) => migrationViewOf(m, objects.get(m.id)!)), has_more, next_cursor }
    },
  )

  app.get(
    '/migration/:id',
    { schema: { tags, operationId: 'getMigration', summary: 'Read a migration: state, configuration, progress per object, validation', params: migrationParams, response: { 200: migrationSchema, ...errors } }, onRequest: read },
    async (request) => view(request.auth!.orgId, request.params.id),
  )

  app.get(
    '/migration/:id/report',
    {
      schema: { tags, operationId: 'getMigrationReport', summary: 'The analysis report', description: 'Available once the migration is analyzed (404 before).', params: migrationParams, querystring: reportQuerySchema, response: { 200: reportSchema, ...errors } },
      onRequest: read,
    },
    async (request, reply) => {
      const m = await existing(request, request.params.id)
      if (!m.report) throw new NotFound('Report (the analysis has not finished)')
      if (request.query.download) reply.header('content-disposition', `attachment; filename="migration-report-${m.id}.json"`)
      return m.report
    },
  )
}
