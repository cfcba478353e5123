/**
 * GET /api/v1/events/stream: the change feed as Server-Sent Events, resumed with Last-Event-ID, woken
 * when the sequencer numbered events (feed-wakeups.ts), a long-lived answer (app.longLived).
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { ValidationFailed } from '../shared/errors.ts'
import { readableTypes, readFeed } from './feed.ts'
import type { FeedWakeups } from './feed-wakeups.ts'
import type { StreamEnd } from '../http/long-lived/long-lived-response.ts'
import { errors, seqSchema, typesSchema } from './feed-route-kit.ts'

const streamErrors = { ...errors, 429: problemSchema, 503: problemSchema }

const streamQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { after: { ...seqSchema, description: 'As for GET /events; the Last-Event-ID header takes precedence.' }, types: typesSchema },
} as const

/** A stream's page; it reads again at once while pages come full. A stalled reader holds at most one. */
const STREAM_PAGE = 100
/** How often an idle stream looks for events other processes numbered. */
const STREAM_POLL_MS = 250
/** A comment line that keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000

export function feedStreamRoutes(fastify: FastifyInstance, opts: { wakeups: FeedWakeups }): void {
  const app = fastify.withTypeProvider<TypedRoutes>()

  app.get(
    '/events/stream',
    {
      schema: {
        operationId: 'streamEvents',
        tags: ['Events'],
        summary: 'Stream the change feed (Server-Sent Events)',
        description:
          'text/event-stream: each event as `id: <seq>`, `event: <type>`, `data: <event JSON>`. Reconnect with the Last-Event-ID header (EventSource does) to resume after the last event received. ' +
          'A stream counts against the caps on open streams (429 `too_many_streams` past them), ends for a reader that stops reading for the stall limit, and ends with an `access_ended` event within seconds of its access ending (docs/api.md, Long-lived responses).',
        querystring: streamQuerySchema,
        response: {
          200: { description: 'An endless text/event-stream.', content: { 'text/event-stream': { schema: { title: 'EventStream', type: 'string', description: 'Frames of `id: <seq>`, `event: <type>`, `data: <FeedEvent JSON>`.' } } } },
          ...streamErrors,
        },
      },
      onRequest: requireScopes('crm:read'),
    },
    async (request, reply) => {
      const auth = request.auth!
      const types = readableTypes(auth, request.query.types)
      let after = lastEventId(request.headers['last-event-id']) ?? request.query.after ?? null
      // The first read and the slot come before the stream opens, so a bad position or a cap is still a problem+json.
      let page = await readFeed(app.db, auth, after, STREAM_PAGE, types)
      const stream = await app.longLived.open(request, reply, 'events', { farewell })
      stream.beginEventStream()
      let lastWrite = Date.now()
      let open = await stream.write('retry: 1000\n\n')
      while (open && !opts.wakeups.closed) {
        // One event at a time, each waiting for the socket: a reader that stops reading holds one page here, no more.
        for (const e of page.events) if (!(open = await stream.write(`id: ${e.seq}\nevent: ${e.type}\ndata: ${e.json}\n\n`))) break
        if (!open) break
        if (page.events.length > 0) lastWrite = Date.now()
        after = page.nextAfter
        if (!page.hasMore) {
          if (Date.now() - lastWrite > KEEPALIVE_MS) {
            open = await stream.write(': keep-alive\n\n')
            lastWrite = Date.now()
          }
          await opts.wakeups.next(STREAM_POLL_MS)
        }
        if (stream.ended || opts.wakeups.closed) break
        try {
          page = await readFeed(app.db, auth, after, STREAM_PAGE, types)
        } catch (err) {
          request.log.warn({ err }, 'event stream read failed; closing it (the client resumes with Last-Event-ID)')
          break
        }
      }
      stream.end(opts.wakeups.closed ? 'shutdown' : 'finished')
    },
  )
}


/**
 * The stream's last words when its access ended: an `access_ended` event, so a client knows not to
 * resume with the same token (a reconnect gets the 401 or 403 that says why).
 */
function farewell(reason: StreamEnd): string | null {
  if (reason !== 'access_ended') return null
  return `event: access_ended\ndata: {"code":"access_ended","detail":"The access this stream was opened with has ended (token or client revoked, membership or role changed, session ended). Reconnect with a valid credential; Last-Event-ID resumes where this stream stopped."}\n\n`
}

/** Last-Event-ID as a seq; a value that is not one is a 400 rather than a silent restart. */
function lastEventId(raw: string | string[] | undefined): number | null {
  if (raw === undefined) return null
  const text = Array.isArray(raw) ? raw[0] : raw
  if (!/^\d{1,15}$/.test(text.trim())) throw new ValidationFailed('Last-Event-ID must be the seq of an event (a non-negative integer).', [{ field: 'Last-Event-ID', message: 'must be a seq' }])
  return Number(text.trim())
}
