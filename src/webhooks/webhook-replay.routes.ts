/**
 * Replays: sending an endpoint the past events of the journal again, through the normal delivery
 * path (replay/). The replay runner of a background process does the work; this route starts it.
 */
import type { FastifyInstance } from 'fastify'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { startReplay } from './replay/replay.service.ts'
import { errors, manage, tags } from './webhook-route-kit.ts'
import { replayBody, replaySchema, webhookParams } from './webhook.schemas.ts'

export function webhookReplayRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypedRoutes>()

  app.post(
    '/webhooks/:id/replay',
    {
      schema: {
        tags,
        operationId: 'replayWebhook',
        summary: 'Send past events to this endpoint again',
        description:
          'Queues a delivery of every event since `since` (a seq or an RFC 3339 time) through the newest seq now, that the endpoint subscribes to and its filter accepts, through the normal delivery path (signed, retried, logged with `replay_id`). Progress shows as `replay` on the webhook. 409 while the endpoint is disabled or already replaying; 410 `events_expired` when `since` is older than the journal holds.',
        params: webhookParams,
        body: replayBody,
        response: { 202: replaySchema, ...errors, 409: problemSchema, 410: problemSchema },
      },
      onRequest: manage,
    },
    async (request, reply) => {
      const replay = await startReplay(app.db, request.auth!, request.params.id, request.body.since, new Date())
      app.webhookReplays?.wake()
      reply.header('location', `/api/v1/webhooks/${request.params.id}`)
      return reply.status(202).send(replay)
    },
  )
}
