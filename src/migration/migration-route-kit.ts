/**
 * What the migration routes share: their OpenAPI tag and error answers, who may call them (only
 * administrators: reading needs crm:read, changing crm:write), and the lookups and the 202 answer
 * that several of them give.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { adminOnly } from '../http/roles.ts'
import { problemSchema } from '../http/schemas.ts'
import { NotFound } from '../shared/errors.ts'
import type { SecretBox } from '../shared/secret-box.ts'
import { findMigration, type MigrationRow } from './migration.repository.ts'
import { migrationViewOf } from './migration-view.ts'
import { listObjects } from './progress.repository.ts'

export const tags = ['Migration']
export const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

export const read = [requireScopes('crm:read'), adminOnly]
export const change = [requireScopes('crm:write'), adminOnly]

export interface MigrationRouteOptions {
  box: SecretBox
  /** Tells the background runner of this process that work is waiting. */
  wake(): void
  now(): Date
}

export interface MigrationRouteKit {
  opts: MigrationRouteOptions
  /** The migration as the API shows it, or 404. */
  view(orgId: string, id: string): Promise<ReturnType<typeof migrationViewOf>>
  /** The caller's organization's migration, whole (report and configuration), or 404. */
  existing(request: FastifyRequest, id: string): Promise<MigrationRow>
  /** 202 with the migration as accepted, then the runner is woken. */
  accepted(reply: FastifyReply, orgId: string, id: string): Promise<FastifyReply>
}

export function migrationRouteKit(app: FastifyInstance, opts: MigrationRouteOptions): MigrationRouteKit {
  const view = async (orgId: string, id: string) => {
    const m = await findMigration(app.db, orgId, id)
    if (!m) throw new NotFound('Migration')
    return migrationViewOf(m, await listObjects(app.db, orgId, id))
  }
  const existing = async (request: FastifyRequest, id: string): Promise<MigrationRow> => {
    const m = await findMigration(app.db, request.auth!.orgId, id, { full: true })
    if (!m) throw new NotFound('Migration')
    return m
  }
  const accepted = async (reply: FastifyReply, orgId: string, id: string) => {
    // The migration as accepted (`analyzing`, `running`): read before the runner is woken, which can
    // finish a small analysis before a later read, so the answer would skip the state it promises.
    const acceptedView = await view(orgId, id)
    opts.wake()
    reply.header('location', `/api/v1/migration/${id}`)
    return reply.status(202).send(acceptedView)
  }
  return { opts, view, existing, accepted }
}
