/**
 * The special actions of the spec: converting a lead and escalating a case. Each runs in one
 * transaction with its events; an opportunity's stage change is an ordinary PATCH of `stage`.
 */
import { writerOf } from './write-context.ts'
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { idParamsSchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { convertLeadBodySchema, writtenRecordSchema } from './record.schemas.ts'
import { kindsByName } from './kinds/index.ts'
import { convertLeadWithEvents, escalateCaseWithEvents } from './record-writes.ts'

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema, 409: problemSchema }

export async function specialActionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  app.post(
    '/leads/:id/convert',
    {
      schema: {
        operationId: 'convertLead',
        tags: ['Leads'],
        summary: 'Convert a lead',
        description:
          'Creates (or links) an account and a contact, optionally an opportunity, and marks the lead converted, all in one transaction. Converting a lead twice answers 409.',
        params: idParamsSchema,
        body: convertLeadBodySchema,
        response: {
          200: {
            title: 'LeadConversion',
            type: 'object',
            properties: {
              lead: writtenRecordSchema(kindsByName.lead),
              account: writtenRecordSchema(kindsByName.account),
              contact: writtenRecordSchema(kindsByName.contact),
              opportunity: { anyOf: [writtenRecordSchema(kindsByName.opportunity), { type: 'null' }] },
            },
          },
          ...errors,
        },
      },
      onRequest: requireScopes('crm:write'),
    },
    async (request, reply) => {
      const converted = await convertLeadWithEvents(app.db, writerOf(request), request.params.id, request.body ?? {})
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(converted))
    },
  )

  app.post(
    '/cases/:id/escalate',
    {
      schema: {
        operationId: 'escalateCase',
        tags: ['Cases'],
        summary: 'Escalate a case',
        description: 'Sets status escalated, is_escalated and escalated_at. Escalating an escalated case answers 409.',
        params: idParamsSchema,
        body: { title: 'CaseEscalate', type: ['object', 'null'], additionalProperties: false, properties: {} },
        response: { 200: writtenRecordSchema(kindsByName.case), ...errors },
      },
      onRequest: requireScopes('crm:write'),
    },
    async (request, reply) => {
      const escalated = await escalateCaseWithEvents(app.db, writerOf(request), request.params.id)
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(escalated))
    },
  )
}
