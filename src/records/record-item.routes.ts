/**
 * One record of a kind: get, change (only the fields sent), delete. Writes go through the write
 * plan with the request's writer (writerOf).
 */
import { writerOf } from './write-context.ts'
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { idParamsSchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { NotFound } from '../shared/errors.ts'
import { patchBodySchema } from './record.schemas.ts'
import { getRecord } from './record.service.ts'
import { deleteWithEvents, updateWithEvents } from './record-writes.ts'
import { readScopes } from './record-access.ts'
import { withArticle } from './record-labels.ts'
import { WRITE, errors, sendJsonText, sendRecord, type KindRouteParts } from './record-route-kit.ts'

export function recordItemRoutes(fastify: FastifyInstance, { kind, tags, base, name, one, writtenSchema }: KindRouteParts): void {
  const app = fastify.withTypeProvider<TypedRoutes>()
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
