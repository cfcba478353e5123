/**
 * Who may call an administrative operation (docs/members.md, Who may do what): the one guard every
 * such route puts in its `onRequest`, and the second one for operations done in the app only.
 *
 * One rule, whoever asks: an administrative operation needs a person who is an administrator of
 * the organization. A session and a bearer token carry the same `auth.role`, read from the
 * person's membership on every request (orgs/session.service.ts FIND_SESSION_SQL,
 * oauth/token.repository.ts FIND_BEARER_SQL), so a token acts with the role its person has now:
 * a demoted administrator's token loses these operations on its next request, and scopes only ever
 * narrow what the person may do, never widen it.
 *
 * The guards are recognised by identity (roles.openapi.ts marks their operations in the OpenAPI
 * document, and the tests hold every marked operation to a member's session and token), so an
 * administrative route uses these functions, never a check of its own in the handler.
 */
import type { FastifyRequest } from 'fastify'
import { AdminRequired, Forbidden } from '../shared/errors.ts'

/** The guard of every administrative operation: 403 admin_required unless the person is an administrator now. */
export async function adminOnly(request: FastifyRequest): Promise<void> {
  if (request.auth?.role !== 'admin') throw new AdminRequired()
}

const inTheAppGuards = new WeakSet<object>()

/**
 * A guard for operations that hand out access (members, invitations, API clients): done by a
 * person in the app, never with a token, which could otherwise mint itself a lasting foothold.
 * Put it after `adminOnly`, so a member learns they may not do it at all (admin_required) and only
 * an administrator's token hears "do it in the app" (session_required).
 */
export function inTheAppOnly(what: string, where: string) {
  const guard = async function inTheApp(request: FastifyRequest): Promise<void> {
    if (request.auth?.via !== 'session') throw new Forbidden(`${what} are managed from the app (${where}), not with a token.`, 'session_required')
  }
  inTheAppGuards.add(guard)
  return guard
}

export function isInTheAppGuard(hook: unknown): boolean {
  return typeof hook === 'function' && inTheAppGuards.has(hook)
}
