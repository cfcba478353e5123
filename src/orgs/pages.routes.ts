/**
 * Server-rendered pages outside the app: first-run setup (create the first organization and its
 * administrator), sign-in and sign-out. Forms post back to the same origin only. No route schemas:
 * a bad form shows the page again with the reason, not a JSON problem, so handlers read the raw
 * form and query through String() and safeReturnTo.
 *
 * One file per page, registered here in this order: the root's redirect, setup-page.routes.ts,
 * sign-in-page.routes.ts (sign-in and sign-out).
 */
import type { FastifyInstance } from 'fastify'
import { countOrganizations } from './org.repository.ts'
import { findSession, SESSION_COOKIE } from './session.service.ts'
import { setupPageRoutes } from './setup-page.routes.ts'
import { signInPageRoutes } from './sign-in-page.routes.ts'

export async function pageRoutes(app: FastifyInstance): Promise<void> {
  const hide = { schema: { hide: true } }

  app.get('/', hide, async (request, reply) => {
    if ((await countOrganizations(app.db)) === 0) return reply.redirect('/setup', 303)
    const token = request.cookies[SESSION_COOKIE]
    if (token && (await findSession(app.db, token))) return reply.redirect('/app', 303)
    return reply.redirect('/sign-in', 303)
  })

  setupPageRoutes(app)
  signInPageRoutes(app)
}
