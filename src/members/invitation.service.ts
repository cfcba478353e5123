/**
 * Inviting people (docs/members.md, Invitations): one open invitation per address, replaced by a
 * new one; the link in the answer (and the email, when SMTP is configured) and never again; an
 * email that fails loses nothing, the answer says so. Accepting: joinWithInvitation.
 */
import { writeTransaction } from '../db/write-transaction.ts'
import type { WriteReceipt } from '../shared/auth-context.ts'
import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../db/database.ts'
import type { Mailer } from '../mail/index.ts'
import { EMAIL_RE, emailKey, findOrganization, findUserById } from '../orgs/index.ts'
import { ProblemError, ValidationFailed } from '../shared/errors.ts'
import { sha256, uuidv7 } from '../shared/ids.ts'
import { invitationEmail } from './invitation-email.ts'
import { invitationUrl, newInvitationSecret } from './invitation-link.ts'
import { findInvitation, insertInvitation, isMemberByEmail, lockInvitationsOf, recordEmailOutcome, revokeOpenInvitationOf, type InvitationRow } from './invitation.repository.ts'

export class AlreadyMember extends ProblemError {
  constructor() {
    super(409, 'already_member', 'Conflict', 'This person is already a member of the organization; change their role under Members instead.')
  }
}

export function invitationView(row: InvitationRow) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.expired ? ('expired' as const) : ('pending' as const),
    invited_by: row.invited_by ? { user_id: row.invited_by, name: row.inviter_name ?? '' } : null,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
    email_status: row.email_status,
    email_error: row.email_error,
  }
}

export interface InvitationDeps {
  db: Kysely<DB>
  mailer: Mailer | null
  publicUrl: string
}

export async function createInvitation(deps: InvitationDeps, orgId: string, inviterId: string, input: { email: string; role: 'admin' | 'member' }, receipt?: WriteReceipt) {
  const { db, mailer } = deps
  const email = input.email.trim()
  if (!EMAIL_RE.test(email)) throw new ValidationFailed('email must be an email address.', [{ field: 'email', message: 'must be an email address' }])
  const key = emailKey(email)
  if (await isMemberByEmail(db, orgId, key)) throw new AlreadyMember()

  const fresh = { id: uuidv7(), secret: newInvitationSecret() }
  // A keyed retry whose first attempt committed gets that invitation back (kept sealed), and emails nothing again.
  const stored = await writeTransaction(db, receipt, async (trx) => {
    const row = await storeInvitation(trx, { id: fresh.id, orgId, email, emailKey: key, role: input.role, tokenHash: sha256(fresh.secret), invitedBy: inviterId, emailStatus: mailer ? 'sending' : 'not_configured' })
    return { ...fresh, expires_at: new Date(row.expires_at).toISOString() }
  })
  const { id, secret } = stored
  const url = invitationUrl(deps.publicUrl, id, secret)
  if (mailer && id === fresh.id) {
    const outcome = await emailInvitation(db, mailer, { orgId, inviterId, to: email, role: input.role, url, expiresAt: new Date(stored.expires_at) })
    await recordEmailOutcome(db, orgId, id, outcome.status, outcome.status === 'failed' ? outcome.error : null)
  }
  // Answered as created even when an invitation sent a moment later has already replaced it, like
  // two sends in sequence: the later one's link is the one that works (docs/members.md).
  const row = await findInvitation(db, orgId, id)
  return { ...invitationView(row), invitation_url: url }
}

/** Replaces the address's open invitation with this one, in one transaction. */
async function storeInvitation(trx: Transaction<DB>, row: Parameters<typeof insertInvitation>[1]) {
  // Sends of one address at once take turns, so each revokes the one before it and none meets the
  // partial unique index (which still guarantees one open invitation) as an error.
  await lockInvitationsOf(trx, row.orgId, row.emailKey)
  await revokeOpenInvitationOf(trx, row.orgId, row.emailKey)
  return insertInvitation(trx, row)
}

async function emailInvitation(db: Kysely<DB>, mailer: Mailer, input: { orgId: string; inviterId: string; to: string; role: 'admin' | 'member'; url: string; expiresAt: Date }) {
  const [org, inviter] = await Promise.all([findOrganization(db, input.orgId), findUserById(db, input.inviterId)])
  return mailer.send(invitationEmail({ to: input.to, orgName: org?.name ?? 'Cairn', inviterName: inviter?.name ?? 'An administrator', role: input.role, url: input.url, expiresAt: input.expiresAt }))
}
