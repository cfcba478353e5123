/**
 * A kind's collection: list (keyset-paged; a bearer token is judged in the page's statement),
 * count, and create.
 */
import { writerOf } from './write-context.ts'
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { listOptionsFrom, listOptionsOf } from './record-query.ts'
import { countQuerySchema, countSchema, createBodySchema, listQuerySchema, pageSchema, pluralName } from './record.schemas.ts'
import { countListed, listRecords } from './record.service.ts'
import { listWithBearer } from './list-with-bearer.ts'
import { createWithEvents } from './record-writes.ts'
import { readScopes } from './record-access.ts'
import { withArticle } from './record-labels.ts'
import { WRITE, errors, sendJsonText, sendRecord, type KindRouteParts } from './record-route-kit.ts'

export function recordCollectionRoutes(fastify: FastifyInstance, { kind, tags, base, name, writtenSchema, readCheck, stepUp, erpHook }: KindRouteParts): void {
  const app = fastify.withTypeProvider<TypedRoutes>()
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
