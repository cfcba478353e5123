/**
 * The change feed: `GET /events` (pages in seq order) and `GET /events/stream` (the same as
 * Server-Sent Events, resumable with Last-Event-ID). docs/webhooks.md, The change feed.
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { ValidationFailed } from '../shared/errors.ts'
import { feedEventSchema } from './event.schemas.ts'
import { readableTypes, readFeed, readFeedBackwards } from './feed.ts'
import type { FeedWakeups } from './feed-wakeups.ts'
import type { StreamEnd } from '../http/long-lived/long-lived-response.ts'

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 410: problemSchema }
const streamErrors = { ...errors, 429: problemSchema, 503: problemSchema }

const seqSchema = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const
const typesSchema = { type: 'string', maxLength: 2000, description: 'Comma-separated event types; default every type the token may read.' } as const

const feedQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    after: { ...seqSchema, description: 'The last seq you processed; omitted: from the oldest event held.' },
    order: { type: 'string', enum: ['asc', 'desc'], default: 'asc', description: '`desc`: newest first (logs, UIs), continued with `before`; not with `after`.' },
    before: { ...seqSchema, description: 'With order=desc: events below this seq; omitted: from the newest.' },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'Events per page, 1-1000.' },
    types: typesSchema,
  },
} as const

const streamQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { after: { ...seqSchema, description: 'As for GET /events; the Last-Event-ID header takes precedence.' }, types: typesSchema },
} as const

const feedPageSchema = {
  title: 'EventFeedPage',
  type: 'object',
  properties: {
    data: { type: 'array', items: feedEventSchema },
    has_more: { type: 'boolean' },
    next_after: { type: 'integer', description: 'Pass as `after` for the next page (also when has_more is false, to poll). With order=desc: the newest seq, to poll for what follows.' },
    next_before: { type: ['integer', 'null'], description: 'order=desc only: pass as `before` for older events; null at the oldest.' },
  },
  required: ['data', 'has_more', 'next_after'],
} as const

/** A stream's page; it reads again at once while pages come full. A stalled reader holds at most one. */
const STREAM_PAGE = 100
/** How often an idle stream looks for events other processes numbered. */
const STREAM_POLL_MS = 250
/** A comment line that keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000

export async function feedRoutes(fastify: FastifyInstance, opts: { wakeups: FeedWakeups }): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()

  app.get(
    '/events',
    {
      schema: {
        operationId: 'listEvents',
        tags: ['Events'],
        summary: 'Read the change feed',
        description:
          'The organization\'s events in seq order, after `after`. Poll with `after=next_after`: an event never appears below a seq already read (docs/webhooks.md, The change feed). 410 `events_expired` when `after` is older than the retention period.',
        querystring: feedQuerySchema,
        response: { 200: feedPageSchema, ...errors },
      },
      onRequest: requireScopes('crm:read'),
    },
    async (request, reply) => {
      const auth = request.auth!
      const { after, before, order, limit = 100 } = request.query
      const types = readableTypes(auth, request.query.types)
      if (order === 'desc') {
        if (after !== undefined) throw new ValidationFailed('after reads forwards; with order=desc use before.', [{ field: 'after', message: 'not with order=desc' }])
        const back = await readFeedBackwards(app.readDb, auth, before ?? null, limit, types)
        return reply
          .type('application/json; charset=utf-8')
          .send(`{"data":[${back.events.map((e) => e.json).join(',')}],"has_more":${back.hasMore},"next_after":${back.newest},"next_before":${back.nextBefore ?? 'null'}}`)
      }
      if (before !== undefined) throw new ValidationFailed('before reads backwards; add order=desc.', [{ field: 'before', message: 'only with order=desc' }])
      const { events, hasMore, nextAfter } = await readFeed(app.readDb, auth, after ?? null, limit, types)
      return reply.type('application/json; charset=utf-8').send(`{"data":[${events.map((e) => e.json).join(',')}],"has_more":${hasMore},"next_after":${nextAfter}}`)
    },
  )

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
