/**
 * Starting a migration: analyzing a source platform instance with a token the caller gives, or
 * connecting to it through its OAuth consent (the callback is connect/connect-callback.routes.ts).
 */
import type { FastifyInstance } from 'fastify'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { ValidationFailed } from '../shared/errors.ts'
import { startConnect } from './connect/connect.service.ts'
import { analyzeBody, connectBody, connectResponse, migrationSchema } from './migration.schemas.ts'
import { startAnalysis } from './migration.service.ts'
import { checkOutboundUrl, OutboundRefused } from '../shared/outbound/guarded-request.ts'
import { change, errors, tags, type MigrationRouteKit } from './migration-route-kit.ts'

export function migrationStartRoutes(fastify: FastifyInstance, { opts, accepted }: MigrationRouteKit): void {
  const app = fastify.withTypeProvider<TypedRoutes>()

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
}
