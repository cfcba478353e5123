/**
 * The imports API: `POST /api/v1/imports` (multipart: `kind`, `file`, optional `mapping` and
 * `dedupe_by`) answers 202 with the queued import; `GET /api/v1/imports/{id}` is polled for its
 * progress; `GET /api/v1/imports/{id}/issues.csv` downloads its per-row issues; `GET /api/v1/imports`
 * lists the organization's imports. Importing is writing: every route needs crm:write, as the batch
 * endpoint does (docs/imports.md).
 *
 * One file per resource, registered here in this order (the order of the OpenAPI document):
 * import-start, import-read (list, get), import-issues; import-route-kit.ts holds what they share.
 */
import type { FastifyInstance } from 'fastify'
import multipart from '@fastify/multipart'
import type { ImportRouteOptions } from './import-route-kit.ts'
import { importStartRoutes } from './import-start.routes.ts'
import { importReadRoutes } from './import-read.routes.ts'
import { importIssueRoutes } from './import-issues.routes.ts'

export type { ImportRouteOptions } from './import-route-kit.ts'

export async function importRoutes(fastify: FastifyInstance, opts: ImportRouteOptions): Promise<void> {
  // Only this plugin's routes read multipart bodies; the file's size limit is the operator's setting.
  await fastify.register(multipart, { limits: { fileSize: fastify.config.importMaxFileBytes } })
  importStartRoutes(fastify, opts)
  importReadRoutes(fastify)
  importIssueRoutes(fastify)
}
