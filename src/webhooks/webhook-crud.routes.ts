/**
 * Webhook endpoints themselves (docs/webhooks.md): register, list, read, change (or disable and
 * re-enable), delete. Registering and changing answer with the signing secret when one is made.
 */
import type { FastifyInstance } from 'fastify'
import { writeTransaction } from '../db/write-transaction.ts'
import { keysetPage } from '../http/keyset-page.ts'
import { pageQuerySchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { NotFound } from '../shared/errors.ts'
import { deleteWebhook, listWebhooks } from './webhook.repository.ts'
import { errors, manage, point, read, tags, type WebhookRouteKit } from './webhook-route-kit.ts'
import { createdWebhookSchema, createWebhookBody, patchWebhookBody, webhookPageSchema, webhookParams, webhookSchema } from './webhook.schemas.ts'
import { changeWebhook, createWebhook } from './webhook.service.ts'

export function webhookCrudRoutes(fastify: FastifyInstance, { deps, existing }: WebhookRouteKit): void {
  const app = fastify.withTypeProvider<TypedRoutes>()

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
}
