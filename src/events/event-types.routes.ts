/** `GET /event-types`: the event catalogue with a JSON Schema of each payload (event-types.ts). */
import type { FastifyInstance } from 'fastify'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { eventTypes } from './event-types.ts'

const eventTypeListSchema = {
  title: 'EventTypeList',
  type: 'object',
  properties: {
    data: {
      type: 'array',
      items: {
        title: 'EventType',
        type: 'object',
        properties: {
          type: { type: 'string' },
          kind: { type: 'string', description: 'The record list the type belongs to, e.g. `opportunities`.' },
          version: { type: 'integer', description: 'Raised only by a breaking change of the payload.' },
          description: { type: 'string' },
          schema: { type: 'object', additionalProperties: true, description: 'JSON Schema (2020-12) of the payload.' },
        },
        required: ['type', 'kind', 'version', 'description', 'schema'],
      },
    },
  },
  required: ['data'],
} as const

export async function eventTypeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  // The same for every caller and every request: built once, sent as text.
  const body = JSON.stringify({ data: eventTypes() })
  app.get(
    '/event-types',
    {
      schema: {
        operationId: 'listEventTypes',
        tags: ['Events'],
        summary: 'List the event types',
        description: 'Every event type a webhook can subscribe to and the change feed carries, with its payload version and JSON Schema.',
        response: { 200: eventTypeListSchema, 401: problemSchema },
      },
    },
    async (_request, reply) => reply.type('application/json; charset=utf-8').send(body),
  )
}
