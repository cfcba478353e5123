/**
 * The REST routes of every record kind, built from its definition: list, create, get, patch, delete.
 * Case comments hang under their case; special actions are registered by their kinds.
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { idParamsSchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import type { Scope } from '../shared/auth-context.ts'
import { NotFound } from '../shared/errors.ts'
import type { RecordKind } from './record-kind.ts'
import { kindsByName, recordKinds } from './kinds/index.ts'
import { listOptionsFrom } from './record-query.ts'
import { batchRoutes } from './batch.routes.ts'
import { createBodySchema, listQuerySchema, pageSchema, patchBodySchema, pluralName, recordSchema, schemaName, writtenRecordSchema } from './record.schemas.ts'
import { getRecord, listRecords } from './record.service.ts'
import { addCaseComment, createWithEvents, deleteWithEvents, updateWithEvents } from './record-writes.ts'
import { readScopes } from './record-access.ts'
import { withArticle } from './record-labels.ts'

const WRITE: Scope[] = ['crm:write']

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

function sendJsonText(reply: FastifyReply, json: string, status = 200): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(json)
}

/** Reads and writes already answer as the caller may see (record-access.ts). */
function sendRecord(reply: FastifyReply, record: Record<string, unknown>, status = 200): FastifyReply {
  return sendJsonText(reply, JSON.stringify(record), status)
}

export function registerKindRoutes(fastify: FastifyInstance, kind: RecordKind): void {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const tags = [kind.labelPlural]
  const one = recordSchema(kind)
  const writtenSchema = writtenRecordSchema(kind)
  const base = `/${kind.path}`
  const name = schemaName(kind)

  if (kind.name !== 'case_comment') {
    app.get(
      base,
      {
        schema: { operationId: `list${pluralName(kind)}`, tags, summary: `List ${kind.labelPlural.toLowerCase()}`, description: 'Newest first; keyset-paged.', querystring: listQuerySchema(kind), response: { 200: pageSchema(kind), ...errors } },
        onRequest: requireScopes(...readScopes(kind)),
      },
      async (request, reply) => {
        const page = await listRecords(app.db, request.auth!, kind, listOptionsFrom(kind, request.query))
        return sendJsonText(reply, page.json)
      },
    )
    app.post(
      base,
      {
        schema: { operationId: `create${name}`, tags, summary: `Create ${withArticle(kind.label.toLowerCase())}`, body: createBodySchema(kind), response: { 201: writtenSchema, ...errors, 409: problemSchema } },
        onRequest: requireScopes(...WRITE),
      },
      async (request, reply) => {
        const written = await createWithEvents(app.db, request.auth!, kind, request.body)
        reply.header('location', `/api/v1${base}/${written.id}`)
        return sendRecord(reply, written, 201)
      },
    )
  }

  app.get(
    `${base}/:id`,
    { schema: { operationId: `get${name}`, tags, summary: `Get ${withArticle(kind.label.toLowerCase())}`, params: idParamsSchema, response: { 200: one, ...errors } }, onRequest: requireScopes(...readScopes(kind)) },
    async (request, reply) => {
      const json = await getRecord(app.db, request.auth!, kind, request.params.id)
      if (!json) throw new NotFound(kind.label)
      return sendJsonText(reply, json)
    },
  )
  app.patch(
    `${base}/:id`,
    {
      schema: { operationId: `update${name}`, tags, summary: `Change ${withArticle(kind.label.toLowerCase())}`, description: 'Only the fields sent change; null clears a field.', params: idParamsSchema, body: patchBodySchema(kind), response: { 200: writtenSchema, ...errors, 409: problemSchema } },
      onRequest: requireScopes(...WRITE),
    },
    async (request, reply) => {
      const written = await updateWithEvents(app.db, request.auth!, kind, request.params.id, request.body)
      if (!written) throw new NotFound(kind.label)
      return sendRecord(reply, written)
    },
  )
  app.delete(
    `${base}/:id`,
    { schema: { operationId: `delete${name}`, tags, summary: `Delete ${withArticle(kind.label.toLowerCase())}`, params: idParamsSchema, response: { 204: { type: 'null', description: 'Deleted' }, ...errors } }, onRequest: requireScopes(...WRITE) },
    async (request, reply) => {
      if (!(await deleteWithEvents(app.db, request.auth!, kind, request.params.id))) throw new NotFound(kind.label)
      return reply.status(204).send()
    },
  )
}

function registerCommentRoutes(fastify: FastifyInstance): void {
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
      const page = await listRecords(app.db, request.auth!, comment, { ...opts, parent: { column: 'case_id', value: caseId } })
      return sendJsonText(reply, page.json)
    },
  )
  app.post(
    '/cases/:id/comments',
    {
      schema: { operationId: 'createCaseComment', tags, summary: 'Add a comment to a case', params: idParamsSchema, body: createBodySchema(comment), response: { 201: writtenRecordSchema(comment), ...errors } },
      onRequest: requireScopes('crm:write'),
    },
    async (request, reply) => {
      const written = await addCaseComment(app.db, request.auth!, request.params.id, request.body)
      reply.header('location', `/api/v1/case-comments/${written.id}`)
      return sendRecord(reply, written, 201)
    },
  )
}

export async function recordRoutes(app: FastifyInstance): Promise<void> {
  for (const kind of recordKinds) registerKindRoutes(app, kind)
  registerCommentRoutes(app)
  await batchRoutes(app)
}
