/**
 * Changing who is in an organization and with which role, under one rule: an organization always
 * keeps at least one administrator (docs/members.md, The last administrator).
 */
import { writeTransaction } from '../db/write-transaction.ts'
import type { WriteReceipt } from '../shared/auth-context.ts'
import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../db/database.ts'
import { recordChanges, recordWrites } from '../records/index.ts'
import type { Writer } from '../records/index.ts'
import { AdminRequired, NotFound, ProblemError } from '../shared/errors.ts'
import { deleteMembership, findMember, lockAdministrators, setMemberRole, type MemberRow } from './member.repository.ts'

export class LastAdministrator extends ProblemError {
  constructor(detail: string) {
    super(409, 'last_admin', 'Conflict', detail)
  }
}

export function memberView(row: MemberRow) {
  return { user_id: row.user_id, email: row.email, name: row.name, role: row.role, joined_at: new Date(row.joined_at).toISOString() }
}

/** The administrators, locked, after checking that the actor is still one of them (they may have been demoted meanwhile). */
async function administratorsFor(trx: Transaction<DB>, orgId: string, actorId: string): Promise<Set<string>> {
  const admins = await lockAdministrators(trx, orgId)
  if (!admins.has(actorId)) throw new AdminRequired()
  return admins
}

export async function changeMemberRole(db: Kysely<DB>, orgId: string, actorId: string, userId: string, role: 'admin' | 'member', receipt?: WriteReceipt) {
  return writeTransaction(db, receipt, async (trx) => {
    const admins = await administratorsFor(trx, orgId, actorId)
    const member = await findMember(trx, orgId, userId)
    if (!member) throw new NotFound('Member')
    if (role === 'member' && admins.has(userId) && admins.size === 1) {
      throw new LastAdministrator('This is the only administrator of the organization: make someone else an administrator first.')
    }
    if (member.role !== role) await setMemberRole(trx, orgId, userId, role)
    return memberView({ ...member, role })
  })
}

/**
 * Ends a membership. Their records lose their owner through the records' write plan, journaled as
 * the remover's changes (records/owner-release.ts); their sessions, grants and tokens here go with
 * the membership (member.repository.ts).
 */
export async function removeMember(db: Kysely<DB>, writer: Writer, userId: string): Promise<void> {
  const orgId = writer.auth.orgId
  await recordChanges.inWriteTransaction(db, writer, async (tx) => {
    const { trx } = tx
    const admins = await administratorsFor(trx, orgId, writer.auth.userId!)
    const member = await findMember(trx, orgId, userId)
    if (!member) throw new NotFound('Member')
    if (admins.has(userId) && admins.size === 1) {
      throw new LastAdministrator('This is the only administrator of the organization: make someone else an administrator before removing them.')
    }
    await recordWrites.releaseOwnedRecords(tx, userId)
    await deleteMembership(trx, orgId, userId)
  })
}
