/**
 * `GET /{kind}/{id}/history`: who changed what in one record, newest first, from the record's
 * history (kept HISTORY_RETENTION_DAYS, for every kind, after the record's deletion too), each
 * entry's fields shaped for the caller's scopes.
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../../http/auth.ts'
import { idParamsSchema, pageQuerySchema, problemSchema } from '../../http/schemas.ts'
import type { TypedRoutes } from '../../http/type-provider.ts'
import { recordAccess, recordSchemas } from '../../records/index.ts'
import { recordKinds } from '../../records/contracts.ts'
import { historyPageSchema } from './history.schemas.ts'
import { recordHistory } from './history.service.ts'

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

export async function historyRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  for (const kind of recordKinds) {
    app.get(
      `/${kind.path}/:id/history`,
      {
        schema: {
          operationId: `list${recordSchemas.schemaName(kind)}History`,
          tags: [kind.labelPlural],
          summary: `List the history of ${recordSchemas.withArticle(kind.label.toLowerCase())}`,
          description:
            "Every change of the record, newest first: when, who (person, API client, channel), the operation, and each changed field's old and new value. Kept HISTORY_RETENTION_DAYS (default 400), also after the record was deleted; 404 only when the organization never had it.",
          params: idParamsSchema,
          querystring: pageQuerySchema,
          response: { 200: historyPageSchema, ...errors },
        },
        onRequest: requireScopes(...recordAccess.readScopes(kind)),
      },
      async (request) => {
        return recordHistory(app.readDb, app.db, request.auth!, kind, request.params.id, request.query.cursor, request.query.limit ?? 50)
      },
    )
  }
}
