/**
 * The change feed: `GET /events` (pages in seq order) and `GET /events/stream` (the same as
 * Server-Sent Events, resumable with Last-Event-ID). docs/webhooks.md, The change feed.
 *
 * One file per resource, registered here in this order (the order of the OpenAPI document):
 * feed-page.routes.ts (GET /events), feed-stream.routes.ts (GET /events/stream).
 */
import type { FastifyInstance } from 'fastify'
import type { FeedWakeups } from './feed-wakeups.ts'
import { feedPageRoutes } from './feed-page.routes.ts'
import { feedStreamRoutes } from './feed-stream.routes.ts'

export async function feedRoutes(fastify: FastifyInstance, opts: { wakeups: FeedWakeups }): Promise<void> {
  feedPageRoutes(fastify)
  feedStreamRoutes(fastify, opts)
}
