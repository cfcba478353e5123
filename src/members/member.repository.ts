/** SQL for the people of one organization: listing them, locking its administrators, changing and removing memberships. */
import { sql, type Kysely, type Transaction } from 'kysely'
import type { DB } from '../db/database.ts'

export interface MemberRow {
  user_id: string
  email: string
  name: string
  role: 'admin' | 'member'
  joined_at: Date | string
}

function memberQuery(db: Kysely<DB>, orgId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'u.name', 'm.role', 'm.created_at as joined_at'])
    .where('m.org_id', '=', orgId)
}

/** Oldest account first (user ids are UUIDv7), so the founding administrator heads the list. */
export function listMembers(db: Kysely<DB>, orgId: string, limit: number, cursor: string | undefined): Promise<MemberRow[]> {
  let q = memberQuery(db, orgId)
  if (cursor) q = q.where('m.user_id', '>', cursor)
  return q.orderBy('m.user_id').limit(limit + 1).execute()
}

export function findMember(db: Kysely<DB>, orgId: string, userId: string): Promise<MemberRow | undefined> {
  return memberQuery(db, orgId).where('m.user_id', '=', userId).executeTakeFirst()
}

/**
 * Locks the organization's administrator rows and answers who they are. Every change that could
 * leave no administrator takes this lock first, so two of them run one after the other: the second
 * sees the first's result (READ COMMITTED re-reads a locked row after waiting) and no pair of
 * concurrent demotions or removals can take the last administrator away.
 */
export async function lockAdministrators(trx: Transaction<DB>, orgId: string): Promise<Set<string>> {
  const rows = await sql<{ user_id: string }>`SELECT user_id FROM memberships WHERE org_id = ${orgId} AND role = 'admin' ORDER BY user_id FOR UPDATE`.execute(trx)
  return new Set(rows.rows.map((r) => r.user_id))
}

export async function setMemberRole(trx: Transaction<DB>, orgId: string, userId: string, role: 'admin' | 'member'): Promise<void> {
  await trx.updateTable('memberships').set({ role }).where('org_id', '=', orgId).where('user_id', '=', userId).execute()
}

/**
 * Ends the membership. The database does the rest of the leaving: the person's sessions in this
 * organization, OAuth grants and tokens go with it (ON DELETE CASCADE). Records they owned have lost
 * their owner before, through the records' write plan (member.service.ts): the foreign keys'
 * ON DELETE SET NULL finds nothing left to clear.
 */
export async function deleteMembership(trx: Transaction<DB>, orgId: string, userId: string): Promise<void> {
  await trx.deleteFrom('memberships').where('org_id', '=', orgId).where('user_id', '=', userId).execute()
}
