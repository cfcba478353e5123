/**
 * Who may call the members and invitations API (docs/members.md, Who may do what): reading the
 * member list is reading CRM data (owners of records), so a token with crm:read may; changing who
 * has access is done by an administrator in the app, never with a token, as for API clients.
 */
import type { FastifyRequest } from 'fastify'
import { requireAdmin, requireScopes } from '../http/auth.ts'
import { Forbidden } from '../shared/errors.ts'

async function sessionOnly(request: FastifyRequest): Promise<void> {
  if (request.auth?.via !== 'session') throw new Forbidden('Members and invitations are managed from the app (Settings -> Members), not with a token.', 'session_required')
}

export const readMembers = [requireScopes('crm:read')]
export const manageMembers = [sessionOnly, requireAdmin()]
