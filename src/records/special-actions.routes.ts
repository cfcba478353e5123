/**
 * The special actions of the spec: converting a lead and escalating a case. Each runs in one
 * transaction with its events; an opportunity's stage change is an ordinary PATCH of `stage`.
 */
import { writerOf } from './write-context.ts'
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { idParamsSchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { convertLeadBodySchema, leadConversionSchema, writtenRecordSchema } from './record.schemas.ts'
import { kindsByName } from './kinds/index.ts'
import { convertLeadWithEvents, escalateCaseWithEvents } from './record-writes.ts'
import { conversionMatches, MAX_MATCHES } from './leads/conversion-matches.ts'

function matchesOf(kind: 'account' | 'contact') {
  return {
    type: 'array',
    items: {
      title: `${kind === 'account' ? 'Account' : 'Contact'}ConversionMatch`,
      type: 'object',
      properties: {
        record: writtenRecordSchema(kindsByName[kind]),
        matched_on: { type: 'array', items: { type: 'string', enum: ['email', 'domain', 'website', 'name', 'similar_name'] }, description: 'Why it is suggested: the same e-mail, e-mail domain, website, name, or a name containing the company.' },
      },
      required: ['record', 'matched_on'],
    },
  } as const
}

const conversionMatchesSchema = {
  title: 'LeadConversionMatches',
  type: 'object',
  properties: { accounts: matchesOf('account'), contacts: matchesOf('contact') },
  required: ['accounts', 'contacts'],
} as const

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
              conversion: leadConversionSchema,
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

  app.get(
    '/leads/:id/conversion-matches',
    {
      schema: {
        operationId: 'getLeadConversionMatches',
        tags: ['Leads'],
        summary: 'Existing records a lead may be converted into',
        description:
          `Up to ${MAX_MATCHES} accounts and ${MAX_MATCHES} contacts, best first, to attach the lead to when converting it instead of creating new ones: ` +
          'accounts whose domain or website host is the lead\'s e-mail domain (mailbox providers such as gmail.com excepted) or whose name is (or contains) its company; ' +
          'contacts with the lead\'s e-mail address or first and last name. `matched_on` says why each is suggested.',
        params: idParamsSchema,
        response: { 200: conversionMatchesSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema },
      },
      onRequest: requireScopes('crm:read'),
    },
    async (request) => conversionMatches(app.readDb, request.auth!, request.params.id),
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
