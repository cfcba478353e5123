/**
 * `/api/v1/views`: saved views of lists and of the pipeline board (docs/views.md). Reading needs
 * crm:read, saving crm:write; a view belongs to the person who saved it, and others see it only
 * when it is shared.
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { idParamsSchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { viewCreateSchema, viewListQuerySchema, viewListSchema, viewSchema, viewUpdateSchema } from './view.schemas.ts'
import { changeView, createView, getView, listViews, removeView } from './views.service.ts'

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

export async function viewRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const tags = ['Views']

  app.get(
    '/views',
    { schema: { operationId: 'listViews', tags, summary: 'List your saved views and the organization\'s shared ones', querystring: viewListQuerySchema, response: { 200: viewListSchema, ...errors } }, onRequest: requireScopes('crm:read') },
    async (request) => ({ data: await listViews(app.db, request.auth!, request.query.kind) }),
  )
  app.post(
    '/views',
    { schema: { operationId: 'createView', tags, summary: 'Save a view of a list or of the pipeline board', body: viewCreateSchema, response: { 201: viewSchema, ...errors } }, onRequest: requireScopes('crm:write') },
    async (request, reply) => {
      const created = await createView(app.db, request.auth!, request.body)
      reply.header('location', `/api/v1/views/${created.id}`)
      return reply.status(201).send(created)
    },
  )
  app.get(
    '/views/:id',
    { schema: { operationId: 'getView', tags, summary: 'Get a saved view', params: idParamsSchema, response: { 200: viewSchema, ...errors } }, onRequest: requireScopes('crm:read') },
    async (request) => getView(app.db, request.auth!, request.params.id),
  )
  app.patch(
    '/views/:id',
    {
      schema: { operationId: 'updateView', tags, summary: 'Change a saved view (its owner; an administrator for shared views)', params: idParamsSchema, body: viewUpdateSchema, response: { 200: viewSchema, ...errors } },
      onRequest: requireScopes('crm:write'),
    },
    async (request) => changeView(app.db, request.auth!, request.params.id, request.body),
  )
  app.delete(
    '/views/:id',
    {
      schema: { operationId: 'deleteView', tags, summary: 'Delete a saved view (its owner; an administrator for shared views)', params: idParamsSchema, response: { 204: { type: 'null', description: 'Deleted' }, ...errors } },
      onRequest: requireScopes('crm:write'),
    },
    async (request, reply) => {
      await removeView(app.db, request.auth!, request.params.id)
      return reply.status(204).send()
    },
  )
}
