/**
 * Signing in (throttled per email and address, one message for an unknown email and a wrong
 * password) and signing out, with the session cookie.
 */
import type { FastifyInstance } from 'fastify'
import { burnPasswordCheck, verifyPassword } from '../shared/passwords.ts'
import { escapeHtml, page } from './html.ts'
import { countOrganizations, findUserByEmail, listMembershipsOfUser } from './org.repository.ts'
import { createSession, deleteSession, SESSION_COOKIE } from './session.service.ts'
import { clearSignInFailures, recordSignInFailure, signInRetryAfter } from './sign-in-throttle.ts'
import { safeReturnTo } from './return-to.ts'
import { sameOrigin, sendPage, setSessionCookie } from './page-reply.ts'

/** `return_to` here is already safe (the caller ran it through safeReturnTo). */
function signInForm(values: { email?: string; return_to: string }, error?: string): string {
  return page(
    'Sign in',
    `<h1>Sign in</h1><p class="lead">Use the email and password of your Cairn account.</p>
${error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : ''}
<form method="post" action="/sign-in">
<input type="hidden" name="return_to" value="${escapeHtml(values.return_to)}">
<label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="username" value="${escapeHtml(values.email)}">
<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">Sign in</button></form>`,
  )
}

export function signInPageRoutes(app: FastifyInstance): void {
  const hide = { schema: { hide: true } }

  app.get('/sign-in', hide, async (request, reply) => {
    if ((await countOrganizations(app.db)) === 0) return reply.redirect('/setup', 303)
    const query = request.query as Record<string, string>
    return sendPage(reply, 200, signInForm({ return_to: safeReturnTo(query.return_to, app.config.publicUrl) }))
  })

  app.post('/sign-in', hide, async (request, reply) => {
    if (!sameOrigin(request)) return sendPage(reply, 403, page('Forbidden', '<h1>Forbidden</h1><p class="lead">This form must be sent from Cairn itself.</p>'))
    const body = (request.body ?? {}) as Record<string, string>
    const email = String(body.email ?? '').slice(0, 320)
    const password = String(body.password ?? '').slice(0, 256)
    const returnTo = safeReturnTo(body.return_to, app.config.publicUrl)
    const wait = await signInRetryAfter(app.db, email, request.ip)
    if (wait > 0) {
      reply.header('retry-after', String(wait))
      return sendPage(reply, 429, signInForm({ email, return_to: returnTo }, `Too many failed attempts. Try again in ${Math.ceil(wait / 60)} minutes.`))
    }
    const user = await findUserByEmail(app.db, email)
    const ok = user ? await verifyPassword(password, user.password_hash) : (await burnPasswordCheck(password), false)
    const orgs = ok && user ? await listMembershipsOfUser(app.db, user.id) : []
    if (!ok || !user || orgs.length === 0) {
      await recordSignInFailure(app.db, email, request.ip)
      // One message for unknown email and wrong password: no account enumeration.
      return sendPage(reply, 401, signInForm({ email, return_to: returnTo }, 'That email and password do not match an account.'))
    }
    await clearSignInFailures(app.db, email)
    setSessionCookie(request, reply, await createSession(app.db, user.id, orgs[0].id, app.config.sessionTtlSeconds))
    return reply.redirect(returnTo, 303)
  })

  app.post('/sign-out', hide, async (request, reply) => {
    if (!sameOrigin(request)) return sendPage(reply, 403, page('Forbidden', '<h1>Forbidden</h1>'))
    const token = request.cookies[SESSION_COOKIE]
    if (token) await deleteSession(app.db, token)
    reply.clearCookie(SESSION_COOKIE, { path: '/' })
    return reply.redirect('/sign-in', 303)
  })
}
