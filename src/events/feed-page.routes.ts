/**
 * GET /api/v1/events: the change feed a page at a time, oldest first from `after`, or newest first
 * (`order=desc`) continued with `before`; each event as the caller's scopes may read it.
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { ValidationFailed } from '../shared/errors.ts'
import { feedEventSchema } from './event.schemas.ts'
import { readableTypes, readFeed, readFeedBackwards } from './feed.ts'
import { errors, seqSchema, typesSchema } from './feed-route-kit.ts'

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

export function feedPageRoutes(fastify: FastifyInstance): void {
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
}
