/**
 * The migration API (docs/decisions.md, Paths): analyze (with a token) or connect (OAuth), read, list,
 * the report, configure, run, cancel, the issues and their export. The event stream is in
 * migration-events.routes.ts. Migrations concern the whole organization: only administrators may
 * use them, with a session or a token of theirs (reading needs crm:read, changing crm:write).
 *
 * One file per resource, registered here in this order (the order of the OpenAPI document):
 * migration-start (analyze, connect), migration-read (list, read, report), migration-run
 * (configure, run, cancel), migration-issues; migration-route-kit.ts holds what they share.
 */
import type { FastifyInstance } from 'fastify'
import { migrationRouteKit, type MigrationRouteOptions } from './migration-route-kit.ts'
import { migrationStartRoutes } from './migration-start.routes.ts'
import { migrationReadRoutes } from './migration-read.routes.ts'
import { migrationRunRoutes } from './migration-run.routes.ts'
import { migrationIssueRoutes } from './migration-issues.routes.ts'

export type { MigrationRouteOptions } from './migration-route-kit.ts'

export async function migrationRoutes(fastify: FastifyInstance, opts: MigrationRouteOptions): Promise<void> {
  const kit = migrationRouteKit(fastify, opts)
  migrationStartRoutes(fastify, kit)
  migrationReadRoutes(fastify, kit)
  migrationRunRoutes(fastify, kit)
  migrationIssueRoutes(fastify, kit)
}
