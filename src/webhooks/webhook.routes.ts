/**
 * The webhook API (docs/webhooks.md): register, list, read, change, delete; the delivery log;
 * retrying a delivery by hand; sending a test event; replays. Every operation is administrative
 * (docs/members.md, Who may do what): a webhook sends the organization's records to a system of the
 * administrators' choosing, and its log shows what those systems answered, so members' sessions
 * and tokens alike get 403 admin_required. Reading needs crm:read, managing crm:write. A webhook is
 * a standing read of records, so pointing one somewhere (register, change) needs crm:read too, and
 * every stored payload is shown as the caller's scopes may see it (eventForCaller).
 */
import { writeTransaction } from '../db/write-transaction.ts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { requireScopes } from '../http/auth.ts'
import { adminOnly } from '../http/roles.ts'
import { pageQuerySchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { recordAccess } from '../records/index.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { Conflict, NotFound } from '../shared/errors.ts'
import { uuidv7 } from '../shared/ids.ts'
import type { SecretBox } from '../shared/secret-box.ts'
import { insertDirectDelivery, listDeliveries, requeueDelivery } from './delivery.repository.ts'
import { DELIVERIES_CHANNEL } from './outbox.ts'
import { testEventEnvelope, TEST_EVENT } from '../events/index.ts'
import { deleteWebhook, findWebhook, listWebhooks } from './webhook.repository.ts'
import {
  createdWebhookSchema,
  createWebhookBody,
  deliveryPageSchema,
  deliveryParams,
  deliveryQuerySchema,
  deliverySchema,
  patchWebhookBody,
  replayBody,
  replaySchema,
  webhookPageSchema,
  webhookParams,
  webhookSchema,
} from './webhook.schemas.ts'
import { changeWebhook, createWebhook } from './webhook.service.ts'
import { startReplay } from './replay/replay.service.ts'
import { keysetPage } from '../http/keyset-page.ts'

const tags = ['Webhooks']
const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

const read = [requireScopes('crm:read'), adminOnly]
const manage = [requireScopes('crm:write'), adminOnly]
/** Register or re-point: the endpoint will receive records, so the caller must be able to read them. */
const point = [requireScopes('crm:write', 'crm:read'), adminOnly]

/** Deliveries with their payloads as this caller may see them. */
function shownDeliveries<T extends { payload: unknown }>(auth: AuthContext, deliveries: T[]): T[] {
  return deliveries.map((d) => ({ ...d, payload: recordAccess.eventForCaller(auth, d.payload as { type?: unknown }) }))
}

export async function webhookRoutes(fastify: FastifyInstance, opts: { box: SecretBox }): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const deps = { db: app.db, config: app.config, box: opts.box }
  const wakeDispatchers = () => sql`SELECT pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(app.db)

  async function existing(request: FastifyRequest, id: string) {
    const webhook = await findWebhook(app.db, request.auth!.orgId, id)
    if (!webhook) throw new NotFound('Webhook')
    return webhook
  }

  app.post(
    '/webhooks',
    {
      schema: { tags, operationId: 'createWebhook', summary: 'Register a webhook', description: 'At most 50 per organization.', body: createWebhookBody, response: { 201: createdWebhookSchema, ...errors, 409: problemSchema } },
      onRequest: point,
      config: { answerHoldsSecret: true },
    },
    async (request, reply) => {
      const { webhook, secret } = await createWebhook(deps, request.auth!, request.body)
      reply.header('location', `/api/v1/webhooks/${webhook.id}`)
      return reply.status(201).send({ ...webhook, secret })
    },
  )

  app.get(
    '/webhooks',
    { schema: { tags, operationId: 'listWebhooks', summary: 'List the webhooks of the organization', description: 'Newest first; keyset-paged.', querystring: pageQuerySchema, response: { 200: webhookPageSchema, ...errors } }, onRequest: read },
    async (request) => {
      const { limit = 50, cursor } = request.query
      return keysetPage(await listWebhooks(app.db, request.auth!.orgId, limit + 1, cursor), limit)
    },
  )

  app.get(
    '/webhooks/:id',
    { schema: { tags, operationId: 'getWebhook', summary: 'Get a webhook', params: webhookParams, response: { 200: webhookSchema, ...errors } }, onRequest: read },
    async (request) => existing(request, request.params.id),
  )

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Change, disable or re-enable a webhook',
        description: 'Only the fields sent change. `status: "active"` re-enables an endpoint the service disabled.',
        params: webhookParams,
        body: patchWebhookBody,
        response: { 200: createdWebhookSchema, ...errors },
      },
      onRequest: point,
      config: { answerHoldsSecret: true },
    },
    async (request) => {
      const { webhook, secret } = await changeWebhook(deps, request.auth!, request.params.id, request.body)
      return { ...webhook, secret }
    },
  )

  app.delete(
    '/webhooks/:id',
    { schema: { tags, operationId: 'deleteWebhook', summary: 'Delete a webhook and its delivery log', params: webhookParams, response: { 204: { type: 'null', description: 'Deleted' }, ...errors } }, onRequest: manage },
    async (request, reply) => {
      if (!(await writeTransaction(app.db, request.auth!.receipt, (trx) => deleteWebhook(trx, request.auth!.orgId, request.params.id)))) throw new NotFound('Webhook')
      return reply.status(204).send()
    },
  )

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
