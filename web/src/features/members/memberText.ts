// Words for roles and email delivery, shared by the members page's tables and modals.
import type { Invitation, Role } from '../../api/members.ts'

export const ROLE_OPTIONS: { value: Role; label: string; description: string }[] = [
  { value: 'member', label: 'Member', description: 'Works with accounts, contacts, deals, leads and cases.' },
  { value: 'admin', label: 'Administrator', description: 'Also manages members, invitations, API clients, webhooks and migrations.' },
]

export function roleLabel(role: Role): string {
  return role === 'admin' ? 'Administrator' : 'Member'
}

export function initials(name: string, email: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const letters = words.length >= 2 ? words[0][0] + words[words.length - 1][0] : (words[0] ?? email).slice(0, 2)
  return letters.toUpperCase()
}

/** What became of an invitation's email, as a short label, a color and an explanation. */
export function emailStatusText(invitation: Pick<Invitation, 'email_status' | 'email_error'>): { label: string; color: string; hint: string } {
  switch (invitation.email_status) {
    case 'sent':
      return { label: 'Emailed', color: 'teal', hint: 'The mail server accepted the invitation email.' }
    case 'failed':
      return { label: 'Email failed', color: 'red', hint: invitation.email_error ? `The email could not be sent: ${invitation.email_error}` : 'The email could not be sent.' }
    case 'sending':
      return { label: 'Sending', color: 'blue', hint: 'The email was being sent.' }
    default:
      return { label: 'Link only', color: 'gray', hint: 'Email is not set up on this server: share the link yourself.' }
  }
}
