/**
 * Organizations, people and browser sessions: the door other capabilities use. Sign-in, first-run
 * and sign-out pages and `GET /api/v1/me` are its routes; the session lookup it offers is injected
 * into the API's authentication (app.ts), so plumbing never imports this folder.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { SessionLookup } from '../http/auth.ts'
import { findSession, SESSION_COOKIE, sessionRoleIn } from './session.service.ts'

/** Browser sessions as the API's authentication and the long-lived responses judge them. */
export function sessionLookup(db: Kysely<DB>): SessionLookup {
  return { cookie: SESSION_COOKIE, find: (token) => findSession(db, token), roleIn: (token, orgId) => sessionRoleIn(db, token, orgId) }
}

// People and organizations.
export { addUserToOrganization, checkPersonInput, createOrganizationWithAdmin, EMAIL_RE } from './org.service.ts'
export { emailKey, findOrganization, findUserByEmail, findUserById, listMembershipsOfUser } from './org.repository.ts'

// Sessions and the pages that set them.
export { createSession, deleteSession, findSession, SESSION_COOKIE, switchSessionOrganization } from './session.service.ts'
export { clearSignInFailures, recordSignInFailure, signInRetryAfter } from './sign-in-throttle.ts'
export { sameOrigin, sendPage, setSessionCookie } from './page-reply.ts'
export { escapeHtml, page } from './html.ts'

// Routes.
export { meRoutes } from './me.routes.ts'
export { pageRoutes } from './pages.routes.ts'
