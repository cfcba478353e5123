/**
 * Server-rendered pages outside the app: first-run setup (create the first organization and its
 * administrator), sign-in and sign-out. Forms post back to the same origin only. No route schemas:
 * a bad form shows the page again with the reason, not a JSON problem, so handlers read the raw
 * form and query through String() and safeReturnTo.
 */
import type { FastifyInstance } from 'fastify'
import { ProblemError } from '../shared/errors.ts'
import { burnPasswordCheck, verifyPassword } from '../shared/passwords.ts'
import { escapeHtml, page } from './html.ts'
import { countOrganizations, findUserByEmail, listMembershipsOfUser } from './org.repository.ts'
import { createOrganizationWithAdmin } from './org.service.ts'
import { createSession, deleteSession, findSession, SESSION_COOKIE } from './session.service.ts'
import { clearSignInFailures, recordSignInFailure, signInRetryAfter } from './sign-in-throttle.ts'
import { safeReturnTo } from './return-to.ts'
import { sameOrigin, sendPage, setSessionCookie } from './page-reply.ts'

function setupForm(values: Record<string, string>, error?: string): string {
  return page(
    'Set up Cairn',
    `<h1>Welcome to Cairn</h1><p class="lead">Create your organization and its first administrator.</p>
${error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : ''}
<form method="post" action="/setup">
<fieldset><legend>Organization</legend>
<label for="org_name">Organization name</label><input id="org_name" name="org_name" type="text" required maxlength="200" value="${escapeHtml(values.org_name)}"></fieldset>
<fieldset><legend>Administrator</legend>
<label for="name">Your name</label><input id="name" name="name" type="text" required maxlength="200" autocomplete="name" value="${escapeHtml(values.name)}">
<label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(values.email)}">
<label for="password">Password</label><input id="password" name="password" type="password" required minlength="8" autocomplete="new-password">
</fieldset>
<button type="submit">Create organization</button></form>`,
  )
}

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

export async function pageRoutes(app: FastifyInstance): Promise<void> {
  const hide = { schema: { hide: true } }

  app.get('/', hide, async (request, reply) => {
    if ((await countOrganizations(app.db)) === 0) return reply.redirect('/setup', 303)
    const token = request.cookies[SESSION_COOKIE]
    if (token && (await findSession(app.db, token))) return reply.redirect('/app', 303)
    return reply.redirect('/sign-in', 303)
  })

  app.get('/setup', hide, async (_request, reply) => {
    if ((await countOrganizations(app.db)) > 0) return reply.redirect('/sign-in', 303)
    return sendPage(reply, 200, setupForm({}))
  })

  app.post('/setup', hide, async (request, reply) => {
    if (!sameOrigin(request)) return sendPage(reply, 403, page('Forbidden', '<h1>Forbidden</h1><p class="lead">This form must be sent from Cairn itself.</p>'))
    if ((await countOrganizations(app.db)) > 0) return reply.redirect('/sign-in', 303)
    const body = (request.body ?? {}) as Record<string, string>
    const values = { org_name: String(body.org_name ?? ''), name: String(body.name ?? ''), email: String(body.email ?? '') }
    try {
      const { orgId, userId } = await createOrganizationWithAdmin(app.db, {
        name: values.org_name,
        adminName: values.name,
        adminEmail: values.email,
        adminPassword: String(body.password ?? ''),
      })
      setSessionCookie(request, reply, await createSession(app.db, userId, orgId, app.config.sessionTtlSeconds))
      return reply.redirect('/app', 303)
    } catch (err) {
      if (err instanceof ProblemError && err.status < 500) return sendPage(reply, 400, setupForm(values, err.message))
      throw err
    }
  })

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
