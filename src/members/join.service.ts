/**
 * Accepting an invitation from its link: a new person creates their account and joins, a person
 * with an account joins it. Each is one transaction around the guarded claim, so a link works once
 * and a revoked or expired one never does (docs/members.md, Accepting).
 */
import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../db/database.ts'
import { emailKey, checkPersonInput } from '../orgs/index.ts'
import { hashPassword } from '../shared/passwords.ts'
import { uuidv7 } from '../shared/ids.ts'
import { claimInvitation, type LinkedInvitation } from './invitation.repository.ts'

/** Thrown when the invitation was used, revoked or expired between showing the page and the form's answer. */
export class InvitationGone extends Error {}

/** Another account took this address between showing the page and the form's answer. */
export class EmailTaken extends Error {}

async function join(trx: Transaction<DB>, invitation: LinkedInvitation, userId: string): Promise<string> {
  const claimed = await claimInvitation(trx, invitation.id, userId)
  if (!claimed) throw new InvitationGone()
  // Already a member (added another way meanwhile): the invitation is used up all the same.
  await trx.insertInto('memberships').values({ org_id: claimed.org_id, user_id: userId, role: claimed.role }).onConflict((oc) => oc.doNothing()).execute()
  return claimed.org_id
}

export async function joinAsNewPerson(db: Kysely<DB>, invitation: LinkedInvitation, input: { name: string; password: string }): Promise<{ userId: string; orgId: string }> {
  checkPersonInput({ email: invitation.email, password: input.password, name: input.name })
  const passwordHash = await hashPassword(input.password)
  const userId = uuidv7()
  try {
    return await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({ id: userId, email: invitation.email, email_key: emailKey(invitation.email), name: input.name.trim(), password_hash: passwordHash })
        .execute()
      return { userId, orgId: await join(trx, invitation, userId) }
    })
  } catch (err) {
    const e = err as { code?: string; constraint?: string }
    if (e?.code === '23505' && e.constraint === 'users_email_key_key') throw new EmailTaken()
    throw err
  }
}

export async function joinAsExistingPerson(db: Kysely<DB>, invitation: LinkedInvitation, userId: string): Promise<{ orgId: string }> {
  return db.transaction().execute(async (trx) => ({ orgId: await join(trx, invitation, userId) }))
}
