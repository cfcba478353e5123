/**
 * A migration's issues: records that failed, were skipped or were imported with a warning, a page
 * at a time, or all of them as a CSV download (a long-lived answer, app.longLived).
 */
import type { FastifyInstance } from 'fastify'
import type { TypedRoutes } from '../http/type-provider.ts'
import { issuePageSchema, issueExportQuerySchema, issuesQuerySchema, migrationParams } from './migration.schemas.ts'
import { exportIssuesCsv, issueOf } from './issues-export.ts'
import { listIssues } from './progress.repository.ts'
import { keysetPage } from '../http/keyset-page.ts'
import { errors, read, tags, type MigrationRouteKit } from './migration-route-kit.ts'

export function migrationIssueRoutes(fastify: FastifyInstance, { existing }: MigrationRouteKit): void {
  const app = fastify.withTypeProvider<TypedRoutes>()

  app.get(
    '/migration/:id/issues',
    {
      schema: {
        tags,
        operationId: 'listMigrationIssues',
        summary: 'Records that failed, were skipped, or were imported with a warning',
        description: 'Each with its reason and (for failed and skipped records) the source data; oldest first, keyset-paged; filter by kind and object.',
        params: migrationParams,
        querystring: issuesQuerySchema,
        response: { 200: issuePageSchema, ...errors },
      },
      onRequest: read,
    },
    async (request) => {
      const m = await existing(request, request.params.id)
      const q = request.query
      const limit = q.limit ?? 50
      const rows = await listIssues(app.db, m.org_id, m.id, { limit, cursor: q.cursor, kind: q.kind, object: q.object })
      return keysetPage(rows.map(issueOf), limit)
    },
  )

  app.get(
    '/migration/:id/issues.csv',
    {
      schema: { tags, operationId: 'exportMigrationIssues', summary: 'Download every issue as CSV', description: 'Columns: object, src_id, kind, code, field, reason, source_data (JSON), created_at.', params: migrationParams, querystring: issueExportQuerySchema },
      onRequest: read,
    },
    async (request, reply) => {
      const m = await existing(request, request.params.id)
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="migration-issues-${m.id}.csv"`)
      return app.longLived.download(request, reply, 'migration_issues', exportIssuesCsv(app.db, m.org_id, m.id, request.query.kind), { admin: true })
    },
  )
}
