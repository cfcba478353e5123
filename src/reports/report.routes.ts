/**
 * `GET /api/v1/reports/...`: the Reports page's charts, each one endpoint filtered by a period and
 * an owner (report-period.ts), each answer computed by the database (records' recordReads.reports) and a
 * few dozen rows long whatever the number of records (docs/reports.md). Reads go to the read
 * database, as lists do. Amounts need erp:read and read as null without it (docs/api.md, Scopes).
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { recordReads } from '../records/index.ts'
import type { Clock } from '../shared/clock.ts'
import { memberNames } from './member-names.ts'
import { buckets, periodQuerySchema, reportFilter, type PeriodQuery } from './report-period.ts'
import { addAmounts, stageOrder } from './report-shapes.ts'

const tags = ['Reports']
const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema }
const read = requireScopes('crm:read')

const amountsSchema = {
  type: ['array', 'null'],
  description: 'Exact decimal totals per currency; null without the erp:read scope.',
  items: { type: 'object', required: ['currency', 'total'], properties: { currency: { type: ['string', 'null'] }, total: { type: 'string' } } },
} as const
const periodSchema = { type: 'object', required: ['from', 'to'], properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } } } as const
const ownersSchema = {
  type: 'array',
  description: 'The members the answer names (owner ids), with their names; an owner who has left the organization is not listed.',
  items: { type: 'object', required: ['id', 'name', 'email'], properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, email: { type: 'string' } } },
} as const
const report = (title: string, required: string[], properties: Record<string, unknown>) =>
  ({ title, type: 'object', required: ['period', 'owners', ...required], properties: { period: periodSchema, owners: ownersSchema, ...properties } }) as const

export async function reportRoutes(fastify: FastifyInstance, opts: { clock: Clock }): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const route = (path: string, operationId: string, summary: string, description: string, response: object, handler: (q: PeriodQuery, request: import('fastify').FastifyRequest) => Promise<unknown>) =>
    app.get(path, { schema: { tags, operationId, summary, description, querystring: periodQuerySchema, response: { 200: response, ...errors } }, onRequest: read }, async (request) => handler(request.query as PeriodQuery, request))

  route(
    '/reports/pipeline',
    'getPipelineReport',
    'Pipeline by stage and owner',
    'Opportunities whose close date is in the period, per stage (pipeline order, every stage listed) and owner: count and, with erp:read, amount per currency.',
    report('PipelineReport', ['amounts_visible', 'stages'], {
      amounts_visible: { type: 'boolean' },
      stages: {
        type: 'array',
        items: {
          type: 'object',
          required: ['stage', 'count', 'amounts', 'by_owner'],
          properties: {
            stage: { type: ['string', 'null'] },
            count: { type: 'integer' },
            amounts: amountsSchema,
            by_owner: { type: 'array', items: { type: 'object', required: ['owner_id', 'count', 'amounts'], properties: { owner_id: { type: ['string', 'null'], format: 'uuid' }, count: { type: 'integer' }, amounts: amountsSchema } } },
          },
        },
      },
    }),
    async (q, request) => {
      const { period, filter } = reportFilter(q, opts.clock.now())
      const auth = request.auth!
      const { rows, amountsVisible } = await recordReads.reports.pipelineByStageAndOwner(app.readDb, auth, filter)
      const stages = stageOrder(rows.map((r) => r.stage)).map((stage) => {
        const of = rows.filter((r) => r.stage === stage)
        const owners = [...new Set(of.map((r) => r.owner_id))]
        const byOwner = owners.map((owner_id) => {
          const mine = of.filter((r) => r.owner_id === owner_id)
          return { owner_id, count: mine.reduce((n, r) => n + r.count, 0), amounts: amountsVisible ? addAmounts(mine) : null }
        })
        return { stage, count: of.reduce((n, r) => n + r.count, 0), amounts: amountsVisible ? addAmounts(of) : null, by_owner: byOwner }
      })
      return { period, amounts_visible: amountsVisible, stages, owners: await memberNames(app.readDb, auth.orgId, rows.map((r) => r.owner_id)) }
    },
  )

  route(
    '/reports/won-lost',
    'getWonLostReport',
    'Won and lost opportunities by month',
    'Opportunities closed won and closed lost, by the month of their close date (every month of the period listed): count and, with erp:read, amount per currency.',
    report('WonLostReport', ['amounts_visible', 'months'], {
      amounts_visible: { type: 'boolean' },
      months: {
        type: 'array',
        items: {
          type: 'object',
          required: ['month', 'won', 'lost', 'won_amounts', 'lost_amounts'],
          properties: { month: { type: 'string', format: 'date', description: 'First day of the month.' }, won: { type: 'integer' }, lost: { type: 'integer' }, won_amounts: amountsSchema, lost_amounts: amountsSchema },
        },
      },
    }),
    async (q, request) => {
      const { period, filter } = reportFilter(q, opts.clock.now())
      const { rows, amountsVisible } = await recordReads.reports.wonLostByMonth(app.readDb, request.auth!, filter)
      const months = buckets(period, 'month').map((month) => {
        const won = rows.filter((r) => r.month === month && r.stage === 'closed_won')
        const lost = rows.filter((r) => r.month === month && r.stage === 'closed_lost')
        const count = (of: typeof rows) => of.reduce((n, r) => n + r.count, 0)
        return { month, won: count(won), lost: count(lost), won_amounts: amountsVisible ? addAmounts(won) : null, lost_amounts: amountsVisible ? addAmounts(lost) : null }
      })
      return { period, amounts_visible: amountsVisible, months, owners: [] }
    },
  )

  route(
    '/reports/cases',
    'getCasesReport',
    'Cases opened and closed by week and priority',
    'Cases opened (created) and closed in the period, per ISO week (every week listed, by its Monday) and per priority.',
    report('CasesReport', ['weeks', 'priorities'], {
      weeks: { type: 'array', items: { type: 'object', required: ['week', 'opened', 'closed'], properties: { week: { type: 'string', format: 'date' }, opened: { type: 'integer' }, closed: { type: 'integer' } } } },
      priorities: { type: 'array', items: { type: 'object', required: ['priority', 'opened', 'closed'], properties: { priority: { type: ['string', 'null'] }, opened: { type: 'integer' }, closed: { type: 'integer' } } } },
    }),
    async (q, request) => {
      const { period, filter } = reportFilter(q, opts.clock.now())
      const rows = await recordReads.reports.casesByWeek(app.readDb, request.auth!, filter)
      const sum = (of: typeof rows) => ({ opened: of.reduce((n, r) => n + r.opened, 0), closed: of.reduce((n, r) => n + r.closed, 0) })
      const weeks = buckets(period, 'week').map((week) => ({ week, ...sum(rows.filter((r) => r.week === week)) }))
      const held = [...new Set(rows.map((r) => r.priority))]
      const order = ['critical', 'high', 'medium', 'low'] as (string | null)[]
      const priorities = [...order, ...held.filter((p) => !order.includes(p))].map((priority) => ({ priority, ...sum(rows.filter((r) => r.priority === priority)) }))
      return { period, weeks, priorities, owners: [] }
    },
  )

  route(
    '/reports/activities',
    'getActivitiesReport',
    'Activities per owner',
    'Activities created in the period, per owner: how many of each kind, and how many are completed.',
    report('ActivitiesReport', ['by_owner'], {
      by_owner: {
        type: 'array',
        items: {
          type: 'object',
          required: ['owner_id', 'total', 'completed', 'by_kind'],
          properties: { owner_id: { type: ['string', 'null'], format: 'uuid' }, total: { type: 'integer' }, completed: { type: 'integer' }, by_kind: { type: 'object', additionalProperties: { type: 'integer' } } },
        },
      },
    }),
    async (q, request) => {
      const { period, filter } = reportFilter(q, opts.clock.now())
      const rows = await recordReads.reports.activitiesByOwner(app.readDb, request.auth!, filter)
      const byOwner = [...new Set(rows.map((r) => r.owner_id))].map((owner_id) => {
        const mine = rows.filter((r) => r.owner_id === owner_id)
        const byKind: Record<string, number> = {}
        for (const r of mine) byKind[r.kind] = (byKind[r.kind] ?? 0) + r.count
        return { owner_id, total: mine.reduce((n, r) => n + r.count, 0), completed: mine.filter((r) => r.status === 'completed').reduce((n, r) => n + r.count, 0), by_kind: byKind }
      })
      byOwner.sort((a, b) => b.total - a.total)
      return { period, by_owner: byOwner, owners: await memberNames(app.readDb, request.auth!.orgId, byOwner.map((o) => o.owner_id)) }
    },
  )
}
