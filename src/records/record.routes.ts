/**
 * The REST routes of every record kind, built from its definition: list, create, get, patch, delete.
 * Case comments hang under their case; special actions are registered by their kinds.
 */
import { writerOf } from './write-context.ts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { idParamsSchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import type { Scope } from '../shared/auth-context.ts'
import { NotFound } from '../shared/errors.ts'
import type { RecordKind } from './record-kind.ts'
import { kindsByName, recordKinds } from './kinds/index.ts'
import { fieldsUsed, listOptionsFrom, listOptionsOf } from './record-query.ts'
import { batchRoutes } from './batch.routes.ts'
import { searchRoutes } from './search/search.routes.ts'
import { customFieldRoutes } from './custom-fields/custom-fields.routes.ts'
import {
  countQuerySchema,
  countSchema,
  createBodySchema,
  deletedPageSchema,
  deletedQuerySchema,
  listQuerySchema,
  pageSchema,
  patchBodySchema,
  pluralName,
  recordSchema,
  schemaName,
  writtenRecordSchema,
} from './record.schemas.ts'
import { countListed, getRecord, listDeleted, listRecords } from './record.service.ts'
import { listWithBearer } from './list-with-bearer.ts'
import { addCaseComment, createWithEvents, deleteWithEvents, updateWithEvents } from './record-writes.ts'
import { erpFieldsAmong, readScopes } from './record-access.ts'
import { withArticle } from './record-labels.ts'
import { TOMBSTONE_DAYS } from './record-tombstones.ts'

const WRITE: Scope[] = ['crm:write']

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

function sendJsonText(reply: FastifyReply, json: string, status = 200): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(json)
}

/** Reads and writes already answer as the caller may see (record-access.ts). */
function sendRecord(reply: FastifyReply, record: Record<string, unknown>, status = 200): FastifyReply {
  return sendJsonText(reply, JSON.stringify(record), status)
}

/**
 * Sorting or filtering by an ERP field needs erp:read: the usual step-up 403 (record-access.ts).
 * Kinds without ERP fields get no hook at all.
 */
function erpStepUp(kind: RecordKind) {
  if (erpFieldsAmong(kind, kind.fields.map((f) => f.name)).length === 0) return undefined
  const askErp = requireScopes('erp:read')
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // An invalid query (attached, on list routes) answers 400 in the handler, before this check, as it did.
    if (request.validationError) return
    // A bearer token not judged yet: the list's statement judges it, then runs this check (list-with-bearer.ts).
    if (request.auth === null && request.presentedBearer !== null) return
    const used = fieldsUsed(listOptionsOf(kind, request.query as object))
    if (erpFieldsAmong(kind, used).length > 0) await askErp(request, reply)
  }
}

export function registerKindRoutes(fastify: FastifyInstance, kind: RecordKind): void {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const tags = [kind.labelPlural]
  const one = recordSchema(kind)
  const writtenSchema = writtenRecordSchema(kind)
  const base = `/${kind.path}`
  const name = schemaName(kind)
  const stepUp = erpStepUp(kind)
  const erpHook = stepUp ? { preHandler: stepUp } : {}
  const readCheck = requireScopes(...readScopes(kind))

  if (kind.name !== 'case_comment') {
    app.get(
      base,
      {
        schema: {
          operationId: `list${pluralName(kind)}`,
          tags,
          summary: `List ${kind.labelPlural.toLowerCase()}`,
          description: 'Newest first unless `sort` says otherwise; keyset-paged on (sort value, id). docs/api.md, Lists, has the paging rules.',
          querystring: listQuerySchema(kind),
          response: { 200: pageSchema(kind), ...errors },
        },
        // A bearer token is checked in the page's statement (list-with-bearer.ts), which must then
        // answer an invalid query itself, after the token, as the hooks do for a session.
        config: { bearerInStatement: true },
        attachValidation: true,
        onRequest: readCheck,
        ...erpHook,
      },
      async (request, reply) => {
        if (request.presentedBearer) return sendJsonText(reply, (await listWithBearer(request, reply, kind, { read: readCheck, erp: stepUp })).json)
        if (request.validationError) throw request.validationError
        const page = await listRecords(app.readDb, request.auth!, kind, listOptionsOf(kind, request.query))
        return sendJsonText(reply, page.json)
      },
    )
    app.get(
      `${base}/count`,
      {
        schema: {
          operationId: `count${pluralName(kind)}`,
          tags,
          summary: `Count ${kind.labelPlural.toLowerCase()}`,
          description: 'The exact number of records the list with the same filters would page through.',
          querystring: countQuerySchema(kind),
          response: { 200: countSchema, ...errors },
        },
        onRequest: requireScopes(...readScopes(kind)),
        ...erpHook,
      },
      async (request) => {
        const { limit: _limit, ...opts } = listOptionsFrom(kind, request.query)
        return { count: await countListed(app.readDb, request.auth!, kind, opts) }
      },
    )
    app.post(
      base,
      {
        schema: { operationId: `create${name}`, tags, summary: `Create ${withArticle(kind.label.toLowerCase())}`, body: createBodySchema(kind), response: { 201: writtenSchema, ...errors, 409: problemSchema } },
        onRequest: requireScopes(...WRITE),
      },
      async (request, reply) => {
        const written = await createWithEvents(app.db, writerOf(request), kind, request.body)
        reply.header('location', `/api/v1${base}/${written.id}`)
        return sendRecord(reply, written, 201)
      },
    )
  }

  app.get(
    `${base}/deleted`,
    {
      schema: {
        operationId: `listDeleted${pluralName(kind)}`,
        tags,
        summary: `List deleted ${kind.labelPlural.toLowerCase()}`,
        description: `Tombstones (id, deleted_at) of ${kind.labelPlural.toLowerCase()} deleted in the last ${TOMBSTONE_DAYS} days, newest deletion first; keyset-paged, the cursor being the last id. For sync clients.`,
        querystring: deletedQuerySchema,
        response: { 200: deletedPageSchema, ...errors },
      },
      onRequest: requireScopes(...readScopes(kind)),
    },
    async (request) => {
      const { limit, cursor, deleted_since } = request.query
      return listDeleted(app.db, request.auth!, kind, { limit: limit ?? 50, cursor, deletedSince: deleted_since })
    },
  )
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
      const written = await updateWithEvents(app.db, writerOf(request), kind, request.params.id, request.body)
      if (!written) throw new NotFound(kind.label)
      return sendRecord(reply, written)
    },
  )
  app.delete(
    `${base}/:id`,
    { schema: { operationId: `delete${name}`, tags, summary: `Delete ${withArticle(kind.label.toLowerCase())}`, params: idParamsSchema, response: { 204: { type: 'null', description: 'Deleted' }, ...errors } }, onRequest: requireScopes(...WRITE) },
    async (request, reply) => {
      if (!(await deleteWithEvents(app.db, writerOf(request), kind, request.params.id))) throw new NotFound(kind.label)
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

export async function recordRoutes(app: FastifyInstance): Promise<void> {
  for (const kind of recordKinds) registerKindRoutes(app, kind)
  registerCommentRoutes(app)
  await batchRoutes(app)
  await searchRoutes(app)
  await customFieldRoutes(app)
}
