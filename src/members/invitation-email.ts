/** The invitation email: plain text and a simple HTML version carrying the same link. */
import { escapeHtml } from '../orgs/index.ts'
import { BRAND_COLORS, FONT_FAMILY } from '../shared/brand.ts'
import type { OutgoingMail } from '../mail/index.ts'

export function invitationEmail(input: { to: string; orgName: string; inviterName: string; role: 'admin' | 'member'; url: string; expiresAt: Date }): OutgoingMail {
  const roleText = input.role === 'admin' ? 'an administrator' : 'a member'
  const expires = input.expiresAt.toUTCString()
  const subject = `${input.inviterName} invited you to ${input.orgName} on Cairn`
  const text = [
    `${input.inviterName} invited you to join ${input.orgName} on Cairn as ${roleText}.`,
    '',
    'Accept the invitation:',
    input.url,
    '',
    `The link works once and expires on ${expires}.`,
    'If you did not expect this invitation, you can ignore this email.',
  ].join('\n')
  const html = `<!doctype html><html><body style="font:15px/1.5 ${FONT_FAMILY.replace(/"/g, "'")};color:${BRAND_COLORS.text}">
<p>${escapeHtml(input.inviterName)} invited you to join <strong>${escapeHtml(input.orgName)}</strong> on Cairn as ${roleText}.</p>
<p><a href="${escapeHtml(input.url)}" style="display:inline-block;padding:10px 18px;background:${BRAND_COLORS.primary};color:#fff;border-radius:8px;text-decoration:none;font-weight:600">Accept the invitation</a></p>
<p style="color:${BRAND_COLORS.dimmed};font-size:13px">Or paste this link into your browser: ${escapeHtml(input.url)}<br>The link works once and expires on ${escapeHtml(expires)}. If you did not expect this invitation, you can ignore this email.</p>
</body></html>`
  return { to: input.to, subject, text, html }
}
