/**
 * The special actions of the spec: converting a lead and escalating a case. Each runs in one
 * transaction with its events; an opportunity's stage change is an ordinary PATCH of `stage`.
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { idParamsSchema, problemSchema, recordSchema, uuidSchema } from './record.schemas.ts'
import { kindsByName } from './kinds/index.ts'
import { convertLeadWithEvents, escalateCaseWithEvents } from './record-writes.ts'

/** The body of POST /leads/{id}/convert; the MCP convert_lead tool checks its arguments with it too. */
export const convertLeadBodySchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    account_id: { ...uuidSchema, description: 'Link this existing account instead of creating one from the lead.' },
    contact_id: { ...uuidSchema, description: 'Link this existing contact instead of creating one from the lead.' },
    create_opportunity: { type: 'boolean', default: false, description: 'Also create an opportunity.' },
    opportunity_name: { type: 'string', minLength: 1, maxLength: 255, description: 'Name of the new opportunity (implies create_opportunity).' },
  },
}

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema, 409: problemSchema }

export async function specialActionRoutes(app: FastifyInstance): Promise<void> {
  app.post(
    '/leads/:id/convert',
    {
      schema: {
        tags: ['Leads'],
        summary: 'Convert a lead',
        description:
          'Creates (or links) an account and a contact, optionally an opportunity, and marks the lead converted, all in one transaction. Converting a lead twice answers 409.',
        params: idParamsSchema,
        body: convertLeadBodySchema,
        response: {
          200: {
            type: 'object',
            properties: {
              lead: recordSchema(kindsByName.lead),
              account: recordSchema(kindsByName.account),
              contact: recordSchema(kindsByName.contact),
              opportunity: { anyOf: [recordSchema(kindsByName.opportunity), { type: 'null' }] },
            },
          },
          ...errors,
        },
      },
      onRequest: requireScopes('crm:write'),
    },
    async (request, reply) => {
      const id = (request.params as { id: string }).id
      const result = await convertLeadWithEvents(app.db, request.auth!, id, (request.body ?? {}) as never)
      return reply.type('application/json; charset=utf-8').send(
        JSON.stringify({ lead: result.lead.after, account: result.account, contact: result.contact, opportunity: result.opportunity }),
      )
    },
  )

  app.post(
    '/cases/:id/escalate',
    {
      schema: {
        tags: ['Cases'],
        summary: 'Escalate a case',
        description: 'Sets status escalated, is_escalated and escalated_at. Escalating an escalated case answers 409.',
        params: idParamsSchema,
        body: { type: ['object', 'null'], additionalProperties: false, properties: {} },
        response: { 200: recordSchema(kindsByName.case), ...errors },
      },
      onRequest: requireScopes('crm:write'),
    },
    async (request, reply) => {
      const id = (request.params as { id: string }).id
      const change = await escalateCaseWithEvents(app.db, request.auth!, id)
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(change.after))
    },
  )
}
