/**
 * Moving a migration along: saving its configuration (Configure step), starting the import, and
 * cancelling an analysis or a run. Starting and cancelling answer at once; the runner does the work.
 */
import type { FastifyInstance } from 'fastify'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { configSchema, migrationParams, migrationSchema, runBody } from './migration.schemas.ts'
import { requestCancel, saveConfig, startRun } from './migration.service.ts'
import { change, errors, tags, type MigrationRouteKit } from './migration-route-kit.ts'

export function migrationRunRoutes(fastify: FastifyInstance, { opts, view, accepted }: MigrationRouteKit): void {
  const app = fastify.withTypeProvider<TypedRoutes>()

  app.put(
    '/migration/:id/config',
    {
      schema: {
        tags,
        operationId: 'saveMigrationConfig',
        summary: 'Save the configuration (Configure step)',
        description: 'Validated against the analysis; every problem is listed with the path of the setting. May be saved again until the run starts.',
        params: migrationParams,
        body: configSchema,
        response: { 200: migrationSchema, ...errors, 409: problemSchema },
      },
      onRequest: change,
    },
    async (request) => {
      const { id } = request.params
      await saveConfig(app.db, request.auth!, id, request.body, opts.now())
      return view(request.auth!.orgId, id)
    },
  )

  app.post(
    '/migration/run',
    {
      schema: {
        tags,
        operationId: 'runMigration',
        summary: 'Start the import in the background',
        description: 'Answers at once (202) with the migration in `running`. A phased run (phasing accounts_contacts_first) imports accounts and contacts; run it again for the rest. 409 when the migration is not ready to run, or while another migration of the organization is running or paused (one import per organization at a time).',
        body: runBody,
        response: { 202: migrationSchema, ...errors, 409: problemSchema },
      },
      onRequest: change,
    },
    async (request, reply) => {
      const { migration_id } = request.body
      await startRun(app.db, request.auth!, migration_id, opts.now())
      return accepted(reply, request.auth!.orgId, migration_id)
    },
  )

  app.post(
    '/migration/:id/cancel',
    {
      schema: { tags, operationId: 'cancelMigration', summary: 'Cancel an analysis or a run', description: 'Work under way stops after the page it is writing; records imported until then are kept.', params: migrationParams, response: { 202: migrationSchema, ...errors, 409: problemSchema } },
      onRequest: change,
    },
    async (request, reply) => {
      const { id } = request.params
      await requestCancel(app.db, request.auth!, id, opts.now())
      return accepted(reply, request.auth!.orgId, id)
    },
  )
}
