/**
 * Live progress as Server-Sent Events: `GET /api/v1/migration/{id}/events`. Any process may be the
 * one working on the migration, so the stream watches the database: it polls the migration's
 * `version` (bumped by every change) and sends the whole migration view when it moved, as
 * `event: migration` with the version as the event id. When the migration has ended it sends
 * `event: end` and closes; a reconnecting client (Last-Event-ID) that already saw the end gets 204,
 * which tells EventSource to stop reconnecting.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { StreamEnd } from '../http/long-lived/long-lived-response.ts'
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
        response: { 204: { type: 'null', description: 'The client already saw the end of this migration.' }, 401: problemSchema, 403: problemSchema, 404: problemSchema, 429: problemSchema, 503: problemSchema },
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

      const stream = await app.longLived.open(request, reply, 'migration_progress', { admin: true, farewell })
      stream.beginEventStream()
      let lastSent = -1
      let lastWrite = Date.now()
      const send = async (text: string) => {
        lastWrite = Date.now()
        return stream.write(text)
      }
      // Each push sends the whole migration as it is now: a reader slower than the changes skips
      // versions (the next push after its socket drained sends the newest), so it never falls behind
      // by more than one view.
      const push = async () => {
        const version = await migrationVersion(app.db, orgId, id)
        if (version === null) return stream.end('finished')
        if (version === lastSent) {
          if (Date.now() - lastWrite >= EVENTS_KEEPALIVE_MS) await send(': keep-alive\n\n')
          return
        }
        const m = await findMigration(app.db, orgId, id)
        if (!m) return stream.end('finished')
        lastSent = m.version
        const view = JSON.stringify(migrationViewOf(m, await listObjects(app.db, orgId, id)))
        if (!(await send(`id: ${m.version}\nevent: migration\ndata: ${view}\n\n`))) return
        if (isEnded(m)) {
          await send(`id: ${m.version}\nevent: end\ndata: {"status":"${m.status}"}\n\n`)
          stream.end('finished')
        }
      }
      // The client retries after 2 s if the connection drops.
      await send('retry: 2000\n\n')
      while (!stream.ended) {
        try {
          await push()
        } catch (err) {
          request.log.warn({ err }, 'migration event stream failed; closing it (the client reconnects)')
          stream.end('finished')
        }
        if (!stream.ended) await sleep(EVENTS_POLL_MS, undefined, { signal: stream.signal }).catch(() => {})
      }
    },
  )
}

/** Last words when the reader lost access (signed out, removed, no longer an administrator). */
function farewell(reason: StreamEnd): string | null {
  return reason === 'access_ended' ? 'event: access_ended\ndata: {"code":"access_ended","detail":"The access this stream was opened with has ended."}\n\n' : null
}
