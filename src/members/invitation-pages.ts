/** The pages at an invitation link: join (three ways), and what a used, withdrawn, expired or unknown link shows. */
import { escapeHtml, page } from '../orgs/index.ts'
import type { LinkedInvitation } from './invitation.repository.ts'

/** How the person at the link joins: a new account, an account to sign in to, or the account already signed in. */
export type JoinMode = 'new' | 'existing' | 'signed_in'

function roleText(role: 'admin' | 'member'): string {
  return role === 'admin' ? 'an administrator' : 'a member'
}

function invitedBy(inv: LinkedInvitation): string {
  return `${inv.inviter_name ? `<strong>${escapeHtml(inv.inviter_name)}</strong> invited you` : 'You are invited'} to join <strong>${escapeHtml(inv.org_name)}</strong> on Cairn as ${roleText(inv.role)}.`
}

export function joinPage(inv: LinkedInvitation, mode: JoinMode, options: { action: string; error?: string; name?: string; signedInAs?: string | null }): string {
  const error = options.error ? `<div class="error" role="alert">${escapeHtml(options.error)}</div>` : ''
  const other =
    options.signedInAs && mode !== 'signed_in'
      ? `<div class="note">You are signed in as ${escapeHtml(options.signedInAs)}. This invitation is for ${escapeHtml(inv.email)}; joining signs you in as that account.</div>`
      : ''
  const email = `<div class="label" id="invited-email">Email</div><div class="static" aria-labelledby="invited-email">${escapeHtml(inv.email)}</div>`
  let form: string
  if (mode === 'new') {
    form = `${email}
<label for="name">Your name</label><input id="name" name="name" type="text" required maxlength="200" autocomplete="name" value="${escapeHtml(options.name)}">
<label for="password">Choose a password</label><input id="password" name="password" type="password" required minlength="8" maxlength="256" autocomplete="new-password" aria-describedby="password-hint">
<p class="field-hint" id="password-hint">At least 8 characters.</p>
<button type="submit">Create account and join</button>`
  } else if (mode === 'existing') {
    form = `<p class="lead" style="margin:0">You already have a Cairn account with this email. Sign in to join.</p>${email}
<input type="hidden" name="username" value="${escapeHtml(inv.email)}" autocomplete="username">
<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">Sign in and join</button>`
  } else {
    form = `${email}<button type="submit">Join ${escapeHtml(inv.org_name)}</button>`
  }
  return page(
    `Join ${inv.org_name}`,
    `<h1>Join ${escapeHtml(inv.org_name)}</h1><p class="lead">${invitedBy(inv)}</p>${other}${error}
<form method="post" action="${escapeHtml(options.action)}">${form}</form>`,
  )
}

const GONE: Record<'accepted' | 'revoked' | 'expired', { title: string; text: (inv: LinkedInvitation) => string }> = {
  accepted: {
    title: 'This invitation has already been used',
    text: (inv) => `Each invitation link works once. If you joined ${escapeHtml(inv.org_name)} with it, sign in to continue.`,
  },
  revoked: {
    title: 'This invitation was withdrawn',
    text: (inv) => `An administrator of ${escapeHtml(inv.org_name)} withdrew it or sent a newer one. Ask them for a new invitation if you still need access.`,
  },
  expired: {
    title: 'This invitation has expired',
    text: (inv) => `Invitations are valid for 7 days. Ask ${inv.inviter_name ? escapeHtml(inv.inviter_name) : 'an administrator'} of ${escapeHtml(inv.org_name)} to invite you again.`,
  },
}

export function gonePage(inv: LinkedInvitation, state: 'accepted' | 'revoked' | 'expired'): string {
  const { title, text } = GONE[state]
  return page(title, `<h1>${title}</h1><p class="lead">${text(inv)}</p><a class="button" href="/sign-in">Go to sign-in</a>`)
}

export function invalidLinkPage(): string {
  return page(
    'Invitation not found',
    `<h1>This invitation link is not valid</h1><p class="lead">Check that you copied the whole link from the email or message, or ask the person who invited you for a new one.</p><a class="button" href="/sign-in">Go to sign-in</a>`,
  )
}
