/**
 * The migration API (docs/decisions.md, Paths): analyze (with a token) or connect (OAuth), read, list,
 * the report, configure, run, cancel, the issues and their export. The event stream is in
 * migration-events.routes.ts. Migrations concern the whole organization: only administrators may
 * use them, with a session or a token of theirs (reading needs crm:read, changing crm:write).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { adminOnly } from '../http/roles.ts'
import { pageQuerySchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { NotFound, ValidationFailed } from '../shared/errors.ts'
import type { SecretBox } from '../shared/secret-box.ts'
import { startConnect } from './connect/connect.service.ts'
import { findMigration, listMigrations, type MigrationRow } from './migration.repository.ts'
import {
  analyzeBody,
  configSchema,
  connectBody,
  connectResponse,
  issuePageSchema,
  issueExportQuerySchema,
  issuesQuerySchema,
  migrationPageSchema,
  migrationParams,
  migrationSchema,
  reportQuerySchema,
  reportSchema,
  runBody,
} from './migration.schemas.ts'
import { requestCancel, saveConfig, startAnalysis, startRun } from './migration.service.ts'
import { migrationViewOf } from './migration-view.ts'
import { exportIssuesCsv, issueOf } from './issues-export.ts'
import { listIssues, listObjects, listObjectsOfMigrations } from './progress.repository.ts'
import { checkOutboundUrl, OutboundRefused } from '../shared/outbound/guarded-request.ts'
import { keysetPage } from '../http/keyset-page.ts'

const tags = ['Migration']
const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

const read = [requireScopes('crm:read'), adminOnly]
const change = [requireScopes('crm:write'), adminOnly]

export interface MigrationRouteOptions {
  box: SecretBox
  /** Tells the background runner of this process that work is waiting. */
  wake(): void
  now(): Date
}

export async function migrationRoutes(fastify: FastifyInstance, opts: MigrationRouteOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const view = async (orgId: string, id: string) => {
    const m = await findMigration(app.db, orgId, id)
    if (!m) throw new NotFound('Migration')
    return migrationViewOf(m, await listObjects(app.db, orgId, id))
  }
  const existing = async (request: FastifyRequest, id: string): Promise<MigrationRow> => {
    const m = await findMigration(app.db, request.auth!.orgId, id, { full: true })
    if (!m) throw new NotFound('Migration')
    return m
  }
  const accepted = async (reply: FastifyReply, orgId: string, id: string) => {
    // The migration as accepted (`analyzing`, `running`): read before the runner is woken, which can
    // finish a small analysis before a later read, so the answer would skip the state it promises.
    const acceptedView = await view(orgId, id)
    opts.wake()
    reply.header('location', `/api/v1/migration/${id}`)
    return reply.status(202).send(acceptedView)
  }

  app.post(
    '/migration/analyze',
    {
      schema: {
        tags,
        operationId: 'analyzeMigrationSource',
        summary: 'Start a migration by analyzing a source platform instance',
        description: 'Answers at once with the migration in `analyzing`; the analysis runs in the background (poll GET /migration/{id} or follow /events). An unreachable or private instance URL, or a refused token, ends in `failed` with the reason.',
        body: analyzeBody,
        response: { 202: migrationSchema, ...errors },
      },
      onRequest: change,
    },
    async (request, reply) => {
      const body = request.body
      // The form is checked here (400); where it leads (private addresses, no answer) the analysis
      // finds out, ending in `failed` with the reason.
      try {
        checkOutboundUrl(body.src_instance_url, { allowHttp: app.config.allowPrivateOutbound })
      } catch (err) {
        if (!(err instanceof OutboundRefused)) throw err
        throw new ValidationFailed(`src_instance_url ${err.reason}.`, [{ field: 'src_instance_url', message: err.reason }])
      }
      // Refreshing needs the service's own OAuth client at the source platform (operator settings).
      if (body.src_refresh_token && !(app.config.sourceClientId && app.config.sourceClientSecret)) {
        const message = 'can only be used when the operator has set SOURCE_CLIENT_ID and SOURCE_CLIENT_SECRET (the refresh goes through that OAuth client); leave it out to use the access token alone'
        throw new ValidationFailed(`src_refresh_token ${message}.`, [{ field: 'src_refresh_token', message }])
      }
      const id = await startAnalysis(
        app.db,
        opts.box,
        request.auth!,
        {
          instanceUrl: body.src_instance_url.replace(/\/+$/, ''),
          accessToken: body.src_access_token,
          refreshToken: body.src_refresh_token ?? null,
          environment: body.environment ?? null,
          loginUrl: body.src_refresh_token ? (body.environment === 'sandbox' ? app.config.sourceSandboxLoginUrl : app.config.sourceLoginUrl) : null,
          sourceOrgId: null,
        },
        opts.now(),
      )
      return accepted(reply, request.auth!.orgId, id)
    },
  )

  app.post(
    '/migration/connect',
    {
      schema: {
        tags,
        operationId: 'connectMigrationSource',
        summary: 'Connect to the source platform through its OAuth consent',
        description: 'Answers the URL of the source platform\'s consent page for the chosen environment. After consent the browser returns to Cairn, which creates the migration and starts its analysis. Needs the operator settings SOURCE_CLIENT_ID and SOURCE_CLIENT_SECRET.',
        body: connectBody,
        response: { 200: connectResponse, ...errors, 409: problemSchema },
      },
      onRequest: change,
      config: { answerHoldsSecret: true },
    },
    async (request) => {
      const { environment } = request.body
      return { authorize_url: await startConnect(app, request.auth!, environment, opts.now()) }
    },
  )

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
