/**
 * Builds the application: shared plugins, then each capability, in one readable list. Where a
 * route is registered decides whether it is protected: everything under /api/v1 goes through
 * `authenticate`; pages, health and OAuth endpoints sit outside it.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import cookie from '@fastify/cookie'
import type { Config } from './config.ts'
import type { Database } from './db/connect.ts'
import databasePlugin from './http/plugins/database.ts'
import openapiPlugin from './http/plugins/openapi.ts'
import housekeepingPlugin from './http/plugins/housekeeping.ts'
import readRoutingPlugin from './http/plugins/read-routing.ts'
import embeddedStatisticsPlugin from './http/plugins/embedded-statistics.ts'
import { clientErrorHandler, frameworkErrors, installProblemHandler } from './http/problem-handler.ts'
import { registerCors } from './http/cors.ts'
import { registerBodyParsers } from './http/body-parsers.ts'
import { validatorCompiler } from './http/validation.ts'
import { accessRecheck, authenticate } from './http/auth.ts'
import longLivedPlugin from './http/long-lived/long-lived.plugin.ts'
import { refuseUnstorableText } from './http/unstorable-text.ts'
import { registerIdempotency } from './http/idempotency/idempotency.hooks.ts'
import { markRolesInDocument } from './http/roles.openapi.ts'
import rateLimitPlugin from './http/rate-limit/rate-limit.plugin.ts'
import { recordRoutes, recordWrites } from './records/index.ts'
import { EventJournal, eventRoutes, eventsPlugin } from './events/index.ts'
import { meRoutes, pageRoutes, sessionLookup } from './orgs/index.ts'
import { webAppRoutes } from './http/web-app.ts'
import { uuidv7 } from './shared/ids.ts'
import { systemClock, type Clock } from './shared/clock.ts'
import { clientUseRecorder, makeBearerCheck, oauthServer, resourcesOf, settingsRoutes, type ClientUses } from './oauth/index.ts'
import { webhookRoutes, webhooksPlugin } from './webhooks/index.ts'
import { viewRoutes } from './views/index.ts'
import { mcpRoutes } from './mcp/index.ts'
import { connectCallbackRoutes, migrationEventRoutes, migrationPlugin, migrationRoutes, sourceLinks } from './migration/index.ts'
import { invitationPageRoutes, invitationRoutes, memberRoutes, withoutInvitationSecret } from './members/index.ts'
import { exportRoutes, importRoutes, importsPlugin } from './imports/index.ts'
import { reportRoutes } from './reports/index.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Records API clients' uses (oauth/client-use.ts); `settled()` waits for the writes under way. */
    clientUses: ClientUses
  }
}

export interface AppOptions {
  config: Config
  database: Database
  logger?: boolean | object
  /** Time as the service sees it; tests inject a clock they can move. */
  clock?: Clock
}

/** Fastify's request log line, with the secret of an invitation link left out. */
function loggedRequest(request: FastifyRequest) {
  return { method: request.method, url: withoutInvitationSecret(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort }
}

/** The service's logger: credentials and invitation secrets never reach a line. */
export function loggerOptions(config: Config) {
  return { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'], serializers: { req: loggedRequest } }
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config } = opts
  const clock = opts.clock ?? systemClock
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(config),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => uuidv7(),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // Even requests Fastify or Node refuse before routing answer with a problem (RFC 9457).
    frameworkErrors,
    clientErrorHandler,
  })
  app.setValidatorCompiler(validatorCompiler)
  installProblemHandler(app, config.bodyLimitBytes)
  // On the root, before any plugin: every route inherits the JSON and form parsers.
  registerBodyParsers(app)
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  app.decorateRequest('auth', null)
  app.decorateRequest('sessionToken', null)
  app.decorateRequest('presentedBearer', null)
  app.decorateRequest('credential', null)

  await app.register(databasePlugin, { database: opts.database, config })
  // Every token accepted, by /api/v1 or /mcp, marks its client used (Settings -> API, "Last used").
  const clientUses = clientUseRecorder(opts.database.db, app.log)
  app.decorate('clientUses', clientUses)
  app.addHook('onClose', () => clientUses.settled())
  const resourceMetadataUrl = `${config.publicUrl}/.well-known/oauth-protected-resource`
  const bearer = makeBearerCheck(opts.database.db, clock, resourcesOf(config.publicUrl), 'api', resourceMetadataUrl, clientUses)
  const sessions = sessionLookup(opts.database.db)
  // Streams and downloads: caps, back-pressure, a stall limit, and access checked again while open.
  await app.register(longLivedPlugin, { limits: config.streams, recheck: accessRecheck(bearer, sessions) })
  await registerCors(app)
  await app.register(cookie)
  await app.register(housekeepingPlugin, { clock })
  // Reads on streaming replicas without stale reads (DATABASE_READ_URLS; nothing without them).
  await app.register(readRoutingPlugin)
  await app.register(embeddedStatisticsPlugin)
  // Before /mcp and /api/v1: counts every request their authentication let through.
  await app.register(rateLimitPlugin, { clock })
  await app.register(openapiPlugin, { publicUrl: config.publicUrl })
  // The path of a change (docs/architecture.md): records write through the journal; events number
  // what it holds; webhooks subscribe to it (their deliveries are written with the events).
  // Tombstones of deleted records after TOMBSTONE_DAYS (records has no plugin of its own).
  app.housekeeping.add('record tombstones', (now) => recordWrites.pruneTombstones(app.db, now))
  const journal = new EventJournal()
  app.decorate('changeJournal', journal)
  await app.register(eventsPlugin, { journal })
  await app.register(webhooksPlugin, { clock, journal })
  await app.register(migrationPlugin, { clock, journal })
  await app.register(importsPlugin, { clock, journal, sourceAliases: sourceLinks })

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }))
  await app.register(pageRoutes)
  await app.register(invitationPageRoutes)
  await app.register(webAppRoutes, { sessions })
  await app.register(oauthServer, { clock })
  // MCP hosts authenticate with bearer tokens for /mcp only; outside /api/v1 and its session cookies.
  await app.register(mcpRoutes, { clock, clientUses })
  // Jobs started by a request wake this process's runner; other processes find them at their poll.
  const migrationWork = { wake: () => app.migrationRunner?.wake(), now: () => clock.now() }
  await app.register(connectCallbackRoutes, migrationWork)

  const challenge = () => ({ 'www-authenticate': `Bearer resource_metadata="${resourceMetadataUrl}"` })
  await app.register(
    async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        reply.header('cache-control', 'no-store')
      })
      api.addHook('onRequest', authenticate({ bearer, sessions, challenge }))
      api.addHook('preValidation', refuseUnstorableText)
      // Before any route: it attaches itself to each write route as it is registered.
      registerIdempotency(api, { clock, leaseSeconds: config.idempotencyLeaseSeconds, crashBeforeAnswer: config.testFaults.has('crash-before-answer') })
      // Before any route too: marks each administrative operation in the OpenAPI document.
      markRolesInDocument(api)
      await api.register(meRoutes)
      await api.register(recordRoutes.records)
      await api.register(recordRoutes.specialActions)
      await api.register(recordRoutes.pipeline)
      await api.register(reportRoutes, { clock })
      await api.register(viewRoutes)
      await api.register(eventRoutes, { now: () => clock.now() })
      await api.register(settingsRoutes, { clock })
      await api.register(webhookRoutes, { box: app.secretBox })
      await api.register(migrationRoutes, { box: app.secretBox, ...migrationWork })
      await api.register(migrationEventRoutes)
      await api.register(memberRoutes)
      await api.register(invitationRoutes)
      await api.register(exportRoutes)
      await api.register(importRoutes, { wake: () => app.importRunner?.wake(), now: () => clock.now() })
    },
    { prefix: '/api/v1' },
  )
  return app
}
