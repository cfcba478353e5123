/**
 * Settings -> API: administrators list, create and revoke the organization's OAuth clients.
 * Administrators only, and in the app only (a token cannot mint clients): docs/members.md.
 */
import { writeTransaction } from '../db/write-transaction.ts'
import type { FastifyInstance } from 'fastify'
import { adminOnly, inTheAppOnly } from '../http/roles.ts'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { NotFound } from '../shared/errors.ts'
import type { Clock } from '../shared/clock.ts'
import { createOrgClient, listOrgClients } from './client.service.ts'
import { revokeClientAccess } from './client.repository.ts'
import { SUPPORTED_SCOPES } from './oauth.defaults.ts'

const clientSchema = {
  title: 'ApiClient',
  type: 'object',
  properties: {
    client_id: { type: 'string' },
    name: { type: 'string' },
    redirect_uris: { type: 'array', items: { type: 'string' } },
    scopes: { type: 'array', items: { type: 'string' } },
    registration: { type: 'string', enum: ['settings', 'cli', 'dynamic', 'metadata_document'] },
    origin: { type: ['string', 'null'] },
    created_at: { type: 'string' },
    last_used_at: {
      type: ['string', 'null'],
      description: "When a token of this client was last accepted on a request of this organization (REST or MCP), to the minute: it is recorded at most once a minute, so it may be up to a minute earlier than the last request. null: never used.",
    },
    revoked_at: { type: ['string', 'null'] },
    status: { type: 'string', enum: ['active', 'revoked'] },
  },
  required: ['client_id', 'name', 'redirect_uris', 'scopes', 'registration', 'origin', 'created_at', 'last_used_at', 'revoked_at', 'status'],
}

export async function settingsRoutes(fastify: FastifyInstance, opts: { clock: Clock }): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const tags = ['Settings']
  const sessionAdmin = [adminOnly, inTheAppOnly('API clients', 'Settings -> API')]
  app.get(
    '/settings/api-clients',
    { schema: { operationId: 'listApiClients', tags, summary: 'List the OAuth clients of the organization (admins)', response: { 200: { title: 'ApiClientList', type: 'object', properties: { data: { type: 'array', items: clientSchema } }, required: ['data'] }, 403: problemSchema } }, onRequest: sessionAdmin },
    async (request) => ({ data: await listOrgClients(app.db, request.auth!.orgId) }),
  )
  app.post(
    '/settings/api-clients',
    {
      schema: {
        operationId: 'createApiClient',
        tags,
        summary: 'Create an OAuth client; the secret is in this response only',
        body: {
          title: 'ApiClientCreate',
          type: 'object',
          additionalProperties: false,
          required: ['name', 'redirect_uris', 'scopes'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 200 },
            redirect_uris: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', minLength: 1, maxLength: 2048 } },
            scopes: { type: 'array', minItems: 1, items: { type: 'string', enum: [...SUPPORTED_SCOPES] } },
          },
        },
        response: {
          201: {
            title: 'ApiClientCreated',
            type: 'object',
            properties: { client_id: { type: 'string' }, client_secret: { type: 'string' }, name: { type: 'string' }, redirect_uris: { type: 'array', items: { type: 'string' } }, scopes: { type: 'array', items: { type: 'string' } } },
            required: ['client_id', 'client_secret', 'name', 'redirect_uris', 'scopes'],
          },
          400: problemSchema,
          403: problemSchema,
        },
      },
      onRequest: sessionAdmin,
      config: { answerHoldsSecret: true },
    },
    async (request, reply) => {
      const { name, redirect_uris: redirectUris, scopes } = request.body
      const created = await createOrgClient(app.db, request.auth!.orgId, { name, redirectUris, scopes }, 'settings', request.auth!.receipt)
      return reply.status(201).header('cache-control', 'no-store').send(created)
    },
  )
  app.delete(
    '/settings/api-clients/:client_id',
    {
      schema: {
        operationId: 'revokeApiClient',
        tags,
        summary: 'Revoke a client: every token it holds in this organization stops working at once',
        params: { type: 'object', properties: { client_id: { type: 'string', minLength: 1, maxLength: 2048 } }, required: ['client_id'] },
        response: { 204: { type: 'null' }, 403: problemSchema, 404: problemSchema },
      },
      onRequest: sessionAdmin,
    },
    async (request, reply) => {
      const { client_id } = request.params
      const ok = await writeTransaction(app.db, request.auth!.receipt, (trx) => revokeClientAccess(trx, request.auth!.orgId, client_id, opts.clock.now()))
      if (!ok) throw new NotFound('API client')
      return reply.status(204).send()
    },
  )
}
