/**
 * A webhook's delivery log (each delivery with its attempts, payloads as the caller may see them),
 * sending a delivery again by hand, and queueing a test event. Both queue through the database and
 * then wake the dispatchers of every process.
 */
import type { FastifyInstance } from 'fastify'
import { writeTransaction } from '../db/write-transaction.ts'
import { keysetPage } from '../http/keyset-page.ts'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { testEventEnvelope, TEST_EVENT } from '../events/index.ts'
import { Conflict, NotFound } from '../shared/errors.ts'
import { uuidv7 } from '../shared/ids.ts'
import { insertDirectDelivery, listDeliveries, requeueDelivery } from './delivery.repository.ts'
import { errors, manage, read, shownDeliveries, tags, type WebhookRouteKit } from './webhook-route-kit.ts'
import { deliveryPageSchema, deliveryParams, deliveryQuerySchema, deliverySchema, webhookParams } from './webhook.schemas.ts'

export function webhookDeliveryRoutes(fastify: FastifyInstance, { existing, wakeDispatchers }: WebhookRouteKit): void {
  const app = fastify.withTypeProvider<TypedRoutes>()

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: { tags, operationId: 'listWebhookDeliveries', summary: 'The delivery log of a webhook', description: 'Newest first; keyset-paged; each delivery with its attempts and payload.', params: webhookParams, querystring: deliveryQuerySchema, response: { 200: deliveryPageSchema, ...errors } },
      onRequest: read,
    },
    async (request) => {
      const webhook = await existing(request, request.params.id)
      const { limit = 50, cursor, status } = request.query
      return keysetPage(shownDeliveries(request.auth!, await listDeliveries(app.db, request.auth!.orgId, webhook.id, { limit: limit + 1, cursor, status })), limit)
    },
  )

  app.post(
    '/webhooks/:id/deliveries/:delivery_id/retry',
    {
      schema: { tags, operationId: 'retryWebhookDelivery', summary: 'Send a delivery again now', description: 'Keeps its webhook-id, so receivers can de-duplicate.', params: deliveryParams, response: { 202: deliverySchema, ...errors, 409: problemSchema } },
      onRequest: manage,
    },
    async (request, reply) => {
      const webhook = await existing(request, request.params.id)
      if (webhook.status !== 'active') throw new Conflict('The webhook is disabled; enable it first.')
      const deliveryId = request.params.delivery_id
      const result = await writeTransaction(app.db, request.auth!.receipt, (trx) => requeueDelivery(trx, request.auth!.orgId, webhook.id, deliveryId, new Date()))
      if (result === 'missing') throw new NotFound('Delivery')
      if (result === 'pending') throw new Conflict('This delivery is already waiting to be sent.')
      // Read before the dispatchers wake: the answer shows the delivery as queued, not however far a
      // fast dispatcher has got with it meanwhile.
      const [delivery] = shownDeliveries(request.auth!, await listDeliveries(app.db, request.auth!.orgId, webhook.id, { limit: 1, deliveryId }))
      await wakeDispatchers()
      return reply.status(202).send(delivery)
    },
  )

  app.post(
    '/webhooks/:id/test',
    {
      schema: { tags, operationId: 'sendWebhookTestEvent', summary: 'Send a test event', description: `Queues a \`${TEST_EVENT}\` delivery to this endpoint; it shows in the delivery log.`, params: webhookParams, response: { 202: deliverySchema, ...errors, 409: problemSchema } },
      onRequest: manage,
    },
    async (request, reply) => {
      const webhook = await existing(request, request.params.id)
      if (webhook.status !== 'active') throw new Conflict('The webhook is disabled; enable it first.')
      const at = new Date()
      const eventId = uuidv7(at)
      const body = JSON.stringify(testEventEnvelope(eventId, at, request.auth!.orgId, webhook.id))
      const deliveryId = await writeTransaction(app.db, request.auth!.receipt, (trx) => insertDirectDelivery(trx, request.auth!.orgId, webhook.id, eventId, TEST_EVENT, body, at))
      // Read before the dispatchers wake: the answer shows the delivery as queued, not however far a
      // fast dispatcher has got with it meanwhile.
      const [delivery] = shownDeliveries(request.auth!, await listDeliveries(app.db, request.auth!.orgId, webhook.id, { limit: 1, deliveryId }))
      await wakeDispatchers()
      return reply.status(202).send(delivery)
    },
  )
}
