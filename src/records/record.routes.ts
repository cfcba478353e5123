/**
 * The REST routes of every record kind, built from its definition: list, count, create, deleted,
 * get, patch, delete. Case comments hang under their case; special actions are registered by their
 * kinds.
 *
 * One file per resource, registered here in this order (the order of the OpenAPI document): per
 * kind record-collection (list, count, create; not for case comments), record-deleted and
 * record-item; then case-comment, batch, search and custom fields. record-route-kit.ts holds what
 * they share.
 */
import type { FastifyInstance } from 'fastify'
import type { RecordKind } from './record-kind.ts'
import { recordKinds } from './kinds/index.ts'
import { batchRoutes } from './batch.routes.ts'
import { searchRoutes } from './search/search.routes.ts'
import { customFieldRoutes } from './custom-fields/custom-fields.routes.ts'
import { picklistRoutes } from './picklists/picklists.routes.ts'
import { kindRouteParts } from './record-route-kit.ts'
import { recordCollectionRoutes } from './record-collection.routes.ts'
import { recordDeletedRoutes } from './record-deleted.routes.ts'
import { recordItemRoutes } from './record-item.routes.ts'
import { caseCommentRoutes } from './case-comment.routes.ts'

export function registerKindRoutes(fastify: FastifyInstance, kind: RecordKind): void {
  const parts = kindRouteParts(kind)
  if (kind.name !== 'case_comment') recordCollectionRoutes(fastify, parts)
  recordDeletedRoutes(fastify, parts)
  recordItemRoutes(fastify, parts)
}

export async function recordRoutes(app: FastifyInstance): Promise<void> {
  for (const kind of recordKinds) registerKindRoutes(app, kind)
  caseCommentRoutes(app)
  await batchRoutes(app)
  await searchRoutes(app)
  await customFieldRoutes(app)
  await picklistRoutes(app)
}
