/**
 * GET /api/v1/opportunities/pipeline: the pipeline board's and overview chart's column totals, per
 * stage in pipeline order, computed by the database so they hold at any number of opportunities.
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../../http/auth.ts'
import { problemSchema } from '../../http/schemas.ts'
import type { TypedRoutes } from '../../http/type-provider.ts'
import { readScopes } from '../record-access.ts'
import { opportunityKind } from '../kinds/index.ts'
import { pipelineSummary } from './pipeline.ts'
import { memberFilterSchema } from '../owner-filter.ts'

const amountSchema = {
  title: 'PipelineAmount',
  type: 'object',
  properties: {
    currency: { type: ['string', 'null'] },
    total: { type: 'string', description: 'Exact decimal sum of the amounts in this currency.' },
  },
  required: ['currency', 'total'],
} as const

export const pipelineSchema = {
  title: 'Pipeline',
  type: 'object',
  properties: {
    stages: {
      type: 'array',
      description: 'Every stage of the enumeration in pipeline order (closed won, closed lost last), then any other stage values held (null: no stage).',
      items: {
        title: 'PipelineStage',
        type: 'object',
        properties: {
          stage: { type: ['string', 'null'] },
          count: { type: 'integer' },
          amounts: { type: ['array', 'null'], items: amountSchema, description: 'Totals per currency; null without the erp:read scope.' },
        },
        required: ['stage', 'count', 'amounts'],
      },
    },
    total_count: { type: 'integer' },
    amounts_visible: { type: 'boolean', description: 'False when the caller may not read amounts (no erp:read): every `amounts` is then null.' },
  },
  required: ['stages', 'total_count', 'amounts_visible'],
} as const

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema }
const ownerFilter = memberFilterSchema(opportunityKind.fields.find((f) => f.name === 'owner_id')!)

export async function pipelineRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  app.get(
    '/opportunities/pipeline',
    {
      schema: {
        operationId: 'getPipeline',
        tags: [opportunityKind.labelPlural],
        summary: 'Pipeline by stage',
        description:
          'Opportunity count per stage, and with erp:read the amount totals per stage and currency; `owner_id` narrows it to one owner\'s (`me`, `none`, or a member\'s user id), as the list\'s filter. Without erp:read the amounts are null (amounts_visible: false), as amounts read elsewhere.',
        querystring: { type: 'object', additionalProperties: false, properties: { owner_id: ownerFilter } },
        response: { 200: pipelineSchema, ...errors },
      },
      onRequest: requireScopes(...readScopes(opportunityKind)),
    },
    async (request) => pipelineSummary(app.db, request.auth!, request.query.owner_id as string | undefined),
  )
}
