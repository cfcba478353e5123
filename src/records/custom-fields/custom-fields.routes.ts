/**
 * `/api/v1/custom-fields`: the organization's custom field definitions (docs/custom-fields.md).
 * Anyone who may read records may read them (integrations need the schema); creating, changing and
 * deleting them is for administrators: signed in, or through a token with crm:write granted by an
 * administrator. Also the OpenAPI document with the organization's fields.
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../../http/auth.ts'
import { adminOnly } from '../../http/roles.ts'
import { idParamsSchema, problemSchema } from '../../http/schemas.ts'
import type { TypedRoutes } from '../../http/type-provider.ts'
import type { KindName } from '../record-kind.ts'
import { changeDefinition, createDefinition, deleteDefinition, getDefinition, listCustomFieldDefinitions } from './definitions.service.ts'
import { customFieldCreateSchema, customFieldListQuerySchema, customFieldListSchema, customFieldSchema, customFieldUpdateSchema } from './custom-fields.schemas.ts'
import { organizationDocument } from './organization-openapi.ts'

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

export async function customFieldRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const tags = ['Custom fields']
  const manage = [requireScopes('crm:write'), adminOnly]

  app.get(
    '/custom-fields',
    { schema: { operationId: 'listCustomFields', tags, summary: 'List the custom fields of the organization', querystring: customFieldListQuerySchema, response: { 200: customFieldListSchema, ...errors } }, onRequest: requireScopes('crm:read') },
    async (request) => ({ data: await listCustomFieldDefinitions(app.db, request.auth!.orgId, request.query.kind as KindName | undefined) }),
  )
  app.post(
    '/custom-fields',
    { schema: { operationId: 'createCustomField', tags, summary: 'Define a custom field (administrators)', body: customFieldCreateSchema, response: { 201: customFieldSchema, ...errors, 409: problemSchema } }, onRequest: manage },
    async (request, reply) => {
      const created = await createDefinition(app.db, request.auth!.orgId, { ...request.body, kind: request.body.kind as KindName }, request.auth!.receipt)
      reply.header('location', `/api/v1/custom-fields/${created.id}`)
      return reply.status(201).send(created)
    },
  )
  app.get(
    '/custom-fields/:id',
    { schema: { operationId: 'getCustomField', tags, summary: 'Get a custom field', params: idParamsSchema, response: { 200: customFieldSchema, ...errors } }, onRequest: requireScopes('crm:read') },
    async (request) => getDefinition(app.db, request.auth!.orgId, request.params.id),
  )
  app.patch(
    '/custom-fields/:id',
    {
      schema: { operationId: 'updateCustomField', tags, summary: 'Change a custom field\'s label, options, required flag or (while unused) type (administrators)', params: idParamsSchema, body: customFieldUpdateSchema, response: { 200: customFieldSchema, ...errors, 409: problemSchema } },
      onRequest: manage,
    },
    async (request) => changeDefinition(app.db, request.auth!.orgId, request.params.id, request.body, request.auth!.receipt),
  )
  app.delete(
    '/custom-fields/:id',
    {
      schema: { operationId: 'deleteCustomField', tags, summary: 'Delete a custom field (administrators); records keep their values', params: idParamsSchema, response: { 204: { type: 'null', description: 'Deleted' }, ...errors } },
      onRequest: manage,
    },
    async (request, reply) => {
      await deleteDefinition(app.db, request.auth!.orgId, request.params.id, request.auth!.receipt)
      return reply.status(204).send()
    },
  )
  app.get(
    '/openapi/organization.json',
    {
      schema: {
        operationId: 'getOrganizationOpenApi',
        tags,
        summary: 'The OpenAPI document with this organization\'s custom fields in the record schemas and list filters',
        response: { 200: { title: 'OpenApiDocument', type: 'object', additionalProperties: true, description: 'An OpenAPI 3.1 document.' }, ...errors },
      },
      onRequest: requireScopes('crm:read'),
    },
    async (request, reply) => {
      const doc = organizationDocument(fastify.swagger() as Record<string, unknown>, await listCustomFieldDefinitions(app.db, request.auth!.orgId))
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(doc))
    },
  )
}
