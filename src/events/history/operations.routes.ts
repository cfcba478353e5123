/**
 * Operations (docs/api.md, Operations): `GET /operations` lists recent ones (who, channel, counts,
 * kinds), filtered by API client, person, channel and time; `GET /operations/{id}` one; and
 * `POST /operations/{id}/revert` undoes one (revert.ts), `GET` the same path its revert's status.
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../../http/auth.ts'
import { idParamsSchema, problemSchema } from '../../http/schemas.ts'
import type { TypedRoutes } from '../../http/type-provider.ts'
import { NotFound } from '../../shared/errors.ts'
import { recordChanges } from '../../records/index.ts'
import { findOperation } from './history.repository.ts'
import { listOperations } from './history.service.ts'
import { operationPageSchema, operationSchema, operationsQuerySchema, revertBodySchema, revertStatusSchema } from './history.schemas.ts'
import { actorsOf, operationView, revertStatusOf } from './history-view.ts'
import { resumeIfAbandoned, revertOperation, type RevertDeps } from './revert.ts'

/** The answer of both revert routes: the revert's status, one named type for clients. */
const revertAnswerSchema = { title: 'RevertAnswer', type: 'object', properties: { data: revertStatusSchema }, required: ['data'] } as const

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }
const tags = ['Operations']

export async function operationRoutes(fastify: FastifyInstance, opts: { now: () => Date }): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const deps = (): RevertDeps => ({ db: app.db, journal: app.changeJournal, log: app.log, now: opts.now })

  app.get(
    '/operations',
    {
      schema: {
        operationId: 'listOperations',
        tags,
        summary: 'List recent operations',
        description: 'Requests, batches, CSV import runs, MCP tool calls, migration runs and reverts that changed records, newest first, with who made them, their counts and the kinds they touched. Filter by `client_id` to see what one API client changed (with `since`, in the last day).',
        querystring: operationsQuerySchema,
        response: { 200: operationPageSchema, ...errors },
      },
      onRequest: requireScopes('crm:read'),
    },
    async (request) => {
      const q = request.query
      return listOperations(app.readDb, request.auth!, { clientId: q.client_id, userId: q.user_id, channel: q.channel, since: q.since }, q.cursor, q.limit ?? 50)
    },
  )

  app.get(
    '/operations/:id',
    {
      schema: { operationId: 'getOperation', tags, summary: 'Get an operation', params: idParamsSchema, response: { 200: operationSchema, ...errors } },
      onRequest: requireScopes('crm:read'),
    },
    async (request) => {
      const row = await findOperation(app.db, request.auth!.orgId, request.params.id)
      if (!row) throw new NotFound('Operation')
      return operationView(row, (await actorsOf(app.db)([row]))(row))
    },
  )

  app.post(
    '/operations/:id/revert',
    {
      schema: {
        operationId: 'revertOperation',
        tags,
        summary: 'Revert an operation',
        description:
          "Undoes every change of the operation: a created record is deleted, a deleted one restored with its id, a changed field set back, only where nobody changed it since (conflicts are reported per record and left alone unless `force`). The revert is an operation itself (it can be reverted) and emits the ordinary events. Small reverts finish before the answer; large ones run in the background (poll `GET` on this path). Repeating the request answers the same revert. Administrators may revert any operation; members only their own.",
        params: idParamsSchema,
        body: revertBodySchema,
        response: { 202: revertAnswerSchema, ...errors },
      },
      onRequest: requireScopes('crm:write'),
    },
    async (request, reply) => {
      const auth = request.auth!
      const writer = recordChanges.writerOf(request)
      const revert = await revertOperation(deps(), auth, writer.actor.channel, request.params.id, request.body?.force ?? false)
      return reply.status(202).send({ data: revertStatusOf(revert)! })
    },
  )

  app.get(
    '/operations/:id/revert',
    {
      schema: {
        operationId: 'getOperationRevert',
        tags,
        summary: "Get an operation's revert",
        description: "The status of the operation's revert: its progress and conflicts. 404 when the operation was never reverted.",
        params: idParamsSchema,
        response: { 200: revertAnswerSchema, ...errors },
      },
      onRequest: requireScopes('crm:read'),
    },
    async (request) => {
      const auth = request.auth!
      const original = await findOperation(app.db, auth.orgId, request.params.id)
      if (!original?.reverted_by) throw new NotFound('Revert')
      return { data: revertStatusOf(await resumeIfAbandoned(deps(), auth, original.reverted_by))! }
    },
  )
}
