/**
 * First-run setup: the page that creates the first organization and its administrator, shown only
 * while there is no organization, and signing that administrator in.
 */
import type { FastifyInstance } from 'fastify'
import { ProblemError } from '../shared/errors.ts'
import { escapeHtml, page } from './html.ts'
import { countOrganizations } from './org.repository.ts'
import { createOrganizationWithAdmin } from './org.service.ts'
import { createSession } from './session.service.ts'
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

export function setupPageRoutes(app: FastifyInstance): void {
  const hide = { schema: { hide: true } }

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
}
