/**
 * The consent page: names the application (and, for self-registered ones, that it is unverified),
 * the organization (a choice when the person belongs to several) and every scope in plain words.
 * The form carries the request back, plus the session's CSRF token.
 */
import { escapeHtml, page } from '../../orgs/index.ts'
import { SCOPE_DESCRIPTIONS } from '../oauth.defaults.ts'
import { AUTHORIZE_PARAM_NAMES, type AuthorizeContext } from './authorize-request.ts'

export function consentPage(ctx: AuthorizeContext, orgs: { id: string; name: string }[], activeOrgId: string, csrf: string, userEmail: string): string {
  const client = ctx.client!
  const origin =
    client.registration === 'metadata_document'
      ? `<p class="lead">Identified by <strong>${escapeHtml(new URL(client.client_id).host)}</strong>.</p>`
      : client.registration === 'dynamic'
        ? `<div class="warning" role="note">This application registered itself; its name is <strong>unverified</strong>. Continue only if you started this connection.</div>`
        : ''
  const redirectHost = (() => {
    try {
      return new URL(ctx.redirectUri!).host || ctx.redirectUri!
    } catch {
      return ctx.redirectUri!
    }
  })()
  const hidden = AUTHORIZE_PARAM_NAMES.filter((n) => ctx.params[n] !== undefined)
    .map((n) => `<input type="hidden" name="${n}" value="${escapeHtml(ctx.params[n])}">`)
    .join('')
  const orgChoice =
    orgs.length > 1
      ? `<label for="org_id">Organization</label><select id="org_id" name="org_id">${orgs
          .map((o) => `<option value="${escapeHtml(o.id)}"${o.id === activeOrgId ? ' selected' : ''}>${escapeHtml(o.name)}</option>`)
          .join('')}</select>`
      : `<input type="hidden" name="org_id" value="${escapeHtml(orgs[0].id)}"><p>Organization: <strong>${escapeHtml(orgs[0].name)}</strong></p>`
  const scopes = ctx.scopes!.map((s) => `<li><strong>${escapeHtml(s)}</strong>: ${escapeHtml(SCOPE_DESCRIPTIONS[s] ?? s)}</li>`).join('')
  return page(
    'Authorize access',
    `<h1>Allow ${escapeHtml(client.name)} to access your CRM?</h1>
${origin}
<p class="lead">Signed in as ${escapeHtml(userEmail)}. ${escapeHtml(client.name)} will be able to:</p>
<ul class="scopes">${scopes}</ul>
<form method="post" action="/oauth/authorize">${hidden}<input type="hidden" name="csrf_token" value="${escapeHtml(csrf)}">
${orgChoice}
<p class="hint">You will be sent back to ${escapeHtml(redirectHost)}. You can revoke this access at any time in Settings → API.</p>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`,
  )
}

export function authorizeErrorPage(message: string): string {
  return page(
    'Authorization error',
    `<h1>This authorization request cannot continue</h1><div class="error" role="alert">${escapeHtml(message)}</div>
<p class="lead">The application that sent you here is misconfigured or not registered. Nothing was shared with it. Close this page and contact the application's developer.</p>`,
  )
}
