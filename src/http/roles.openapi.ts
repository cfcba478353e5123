/**
 * Says in the OpenAPI document which operations are administrative: `x-required-role: admin` on
 * every operation guarded by `adminOnly`, and `x-session-only: true` on those done in the app only
 * (roles.ts). Read from the guards a route actually runs, as each route is registered, so the
 * document cannot drift from the code; test/members/admin-operations.test.ts walks these marks so
 * no administrative operation goes untested.
 */
import type { FastifyInstance, RouteOptions } from 'fastify'
import { adminOnly, isInTheAppGuard } from './roles.ts'

function guardsOf(route: RouteOptions): unknown[] {
  return [route.onRequest ?? [], route.preValidation ?? [], route.preHandler ?? []].flat()
}

export function markRolesInDocument(api: FastifyInstance): void {
  api.addHook('onRoute', (route) => {
    const guards = guardsOf(route)
    if (!guards.includes(adminOnly)) return
    // A hidden operation would escape both the reference and the test that walks it.
    if (route.schema?.hide) throw new Error(`${[route.method].flat().join(',')} ${route.url} is administrative: it must be in the OpenAPI document.`)
    // @fastify/swagger copies a route schema's `x-` keys onto its operation; Fastify ignores them.
    const marks: Record<string, unknown> = { 'x-required-role': 'admin', ...(guards.some(isInTheAppGuard) ? { 'x-session-only': true } : {}) }
    route.schema = { ...route.schema, ...marks }
  })
}
