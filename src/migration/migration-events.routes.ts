/**
 * Live progress as Server-Sent Events: `GET /api/v1/migration/{id}/events`. Any process may be the
 * one working on the migration, so the stream watches the database: it polls the migration's
 * `version` (bumped by every change) and sends the whole migration view when it moved, as
 * `event: migration` with the version as the event id. When the migration has ended it sends
 * `event: end` and closes; a reconnecting client (Last-Event-ID) that already saw the end gets 204,
 * which tells EventSource to stop reconnecting.
 */
import { PassThrough } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { adminOnly } from '../http/roles.ts'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { NotFound } from '../shared/errors.ts'
import { EVENTS_KEEPALIVE_MS, EVENTS_POLL_MS } from './migration.defaults.ts'
import { findMigration, migrationVersion } from './migration.repository.ts'
import { migrationParams } from './migration.schemas.ts'
import { isEnded } from './migration.service.ts'
import { migrationViewOf } from './migration-view.ts'
import { listObjects } from './progress.repository.ts'

export async function migrationEventRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  app.get(
    '/migration/:id/events',
    {
      schema: {
        tags: ['Migration'],
        operationId: 'streamMigrationEvents',
        summary: 'Live progress (Server-Sent Events)',
        description:
          'A text/event-stream of `migration` events, each carrying the whole migration (as GET /migration/{id}) whenever it changes; `end` when it has ended. ' +
          'Reconnects may send Last-Event-ID; one after the end answers 204.',
        params: migrationParams,
        response: { 204: { type: 'null', description: 'The client already saw the end of this migration.' }, 401: problemSchema, 403: problemSchema, 404: problemSchema },
      },
      onRequest: [requireScopes('crm:read'), adminOnly],
    },
    async (request, reply) => {
      const orgId = request.auth!.orgId
      const { id } = request.params
      const first = await findMigration(app.db, orgId, id)
      if (!first) throw new NotFound('Migration')
      const lastSeen = Number(request.headers['last-event-id'])
      if (isEnded(first) && lastSeen === first.version) return reply.status(204).send()

      const stream = new PassThrough()
      let lastSent = -1
      let closed = false
      const send = (text: string) => {
        if (!closed) stream.write(text)
      }
      const close = () => {
        if (closed) return
        closed = true
        clearInterval(poll)
        clearInterval(keepalive)
        stream.end()
      }
      const push = async () => {
        const version = await migrationVersion(app.db, orgId, id)
        if (version === null) return close()
        if (version === lastSent) return
        const m = await findMigration(app.db, orgId, id)
        if (!m) return close()
        lastSent = m.version
        send(`id: ${m.version}\nevent: migration\ndata: ${JSON.stringify(migrationViewOf(m, await listObjects(app.db, orgId, id)))}\n\n`)
        if (isEnded(m)) {
          send(`id: ${m.version}\nevent: end\ndata: {"status":"${m.status}"}\n\n`)
          close()
        }
      }
      let busy = false
      const tick = () => {
        if (busy || closed) return
        busy = true
        push()
          .catch((err) => {
            request.log.warn({ err }, 'migration event stream failed')
            close()
          })
          .finally(() => (busy = false))
      }
      const poll = setInterval(tick, EVENTS_POLL_MS)
      const keepalive = setInterval(() => send(': keep-alive\n\n'), EVENTS_KEEPALIVE_MS)
      request.raw.on('close', close)
      // The client retries after 2 s if the connection drops.
      stream.write('retry: 2000\n\n')
      tick()
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-store')
        .header('x-accel-buffering', 'no')
      return reply.send(stream)
    },
  )
}
