/**
 * Case comments under their case: the thread (oldest first), its count, and adding a comment.
 */
import { writerOf } from './write-context.ts'
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { idParamsSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { NotFound } from '../shared/errors.ts'
import { kindsByName } from './kinds/index.ts'
import { listOptionsFrom } from './record-query.ts'
import { countQuerySchema, countSchema, createBodySchema, listQuerySchema, pageSchema, writtenRecordSchema } from './record.schemas.ts'
import { countListed, getRecord, listRecords } from './record.service.ts'
import { addCaseComment } from './record-writes.ts'
import { errors, sendJsonText, sendRecord } from './record-route-kit.ts'

export function caseCommentRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const comment = kindsByName.case_comment
  const caseKind = kindsByName.case
  const tags = [comment.labelPlural]
  app.get(
    '/cases/:id/comments',
    {
      schema: { operationId: 'listCaseComments', tags, summary: 'List the comments of a case', description: 'Oldest first (thread order); keyset-paged.', params: idParamsSchema, querystring: listQuerySchema(comment), response: { 200: pageSchema(comment), ...errors } },
      onRequest: requireScopes('crm:read'),
    },
    async (request, reply) => {
      const caseId = request.params.id
      if (!(await getRecord(app.db, request.auth!, caseKind, caseId))) throw new NotFound('Case')
      const opts = listOptionsFrom(comment, request.query)
      const page = await listRecords(app.readDb, request.auth!, comment, { ...opts, parent: { column: 'case_id', value: caseId } })
      return sendJsonText(reply, page.json)
    },
  )
  app.get(
    '/cases/:id/comments/count',
    {
      schema: {
        operationId: 'countCaseComments',
        tags,
        summary: 'Count the comments of a case',
        description: 'The exact number of comments the thread (with the same filters) pages through.',
        params: idParamsSchema,
        querystring: countQuerySchema(comment),
        response: { 200: countSchema, ...errors },
      },
      onRequest: requireScopes('crm:read'),
    },
    async (request) => {
      const caseId = request.params.id
      if (!(await getRecord(app.db, request.auth!, caseKind, caseId))) throw new NotFound('Case')
      const { limit: _limit, ...opts } = listOptionsFrom(comment, request.query)
      return { count: await countListed(app.readDb, request.auth!, comment, { ...opts, parent: { column: 'case_id', value: caseId } }) }
    },
  )
  app.post(
    '/cases/:id/comments',
    {
      schema: { operationId: 'createCaseComment', tags, summary: 'Add a comment to a case', params: idParamsSchema, body: createBodySchema(comment), response: { 201: writtenRecordSchema(comment), ...errors } },
      onRequest: requireScopes('crm:write'),
    },
    async (request, reply) => {
      const written = await addCaseComment(app.db, writerOf(request), request.params.id, request.body)
      reply.header('location', `/api/v1/case-comments/${written.id}`)
      return sendRecord(reply, written, 201)
    },
  )
}
