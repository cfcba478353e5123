/**
 * A kind's tombstones: the records deleted in the last TOMBSTONE_DAYS days, for sync clients.
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { deletedPageSchema, deletedQuerySchema, pluralName } from './record.schemas.ts'
import { listDeleted } from './record.service.ts'
import { readScopes } from './record-access.ts'
import { TOMBSTONE_DAYS } from './record-tombstones.ts'
import { errors, type KindRouteParts } from './record-route-kit.ts'

export function recordDeletedRoutes(fastify: FastifyInstance, { kind, tags, base }: KindRouteParts): void {
  const app = fastify.withTypeProvider<TypedRoutes>()
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
}
