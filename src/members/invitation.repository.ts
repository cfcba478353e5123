/** SQL for invitations; every query of the API is scoped by org_id, the link's lookup by the id the link carries. */
import { sql, type Kysely, type Transaction } from 'kysely'
import type { DB } from '../db/database.ts'
import { INVITATION_LIFETIME_SECONDS } from './invitation-link.ts'

export interface InvitationRow {
  id: string
  email: string
  role: 'admin' | 'member'
  invited_by: string | null
  inviter_name: string | null
  created_at: Date | string
  expires_at: Date | string
  expired: boolean
  email_status: 'not_configured' | 'sending' | 'sent' | 'failed'
  email_error: string | null
}

function invitations(db: Kysely<DB>) {
  return (
    db
      .selectFrom('invitations as i')
      .leftJoin('users as u', 'u.id', 'i.invited_by')
      .select(['i.id', 'i.email', 'i.role', 'i.invited_by', 'u.name as inviter_name', 'i.created_at', 'i.expires_at', 'i.email_status', 'i.email_error'])
      // The database's clock decides expiry everywhere, so every process agrees.
      .select(sql<boolean>`i.expires_at <= now()`.as('expired'))
  )
}

function openInvitations(db: Kysely<DB>) {
  return invitations(db).where('i.accepted_at', 'is', null).where('i.revoked_at', 'is', null)
}

/** Open invitations (pending or expired, neither accepted nor revoked), newest first. */
export function listOpenInvitations(db: Kysely<DB>, orgId: string, limit: number, cursor: string | undefined): Promise<InvitationRow[]> {
  let q = openInvitations(db).where('i.org_id', '=', orgId)
  if (cursor) q = q.where('i.id', '<', cursor)
  return q.orderBy('i.id', 'desc').limit(limit + 1).execute()
}

/** One invitation as stored, whatever became of it since: the answer to the request that created it. */
export function findInvitation(db: Kysely<DB>, orgId: string, id: string): Promise<InvitationRow> {
  return invitations(db).where('i.org_id', '=', orgId).where('i.id', '=', id).executeTakeFirstOrThrow()
}

/** Holds the address's invitations until the transaction ends: a transaction-scoped advisory lock, as nothing may exist yet to lock. */
export async function lockInvitationsOf(trx: Transaction<DB>, orgId: string, emailKey: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('cairn.invitations'), hashtext(${`${orgId}:${emailKey}`}))`.execute(trx)
}

/** Withdraws the open invitation of an address, if any: a new one replaces it. */
export async function revokeOpenInvitationOf(trx: Transaction<DB>, orgId: string, emailKey: string): Promise<void> {
  await trx.updateTable('invitations').set({ revoked_at: sql`now()` }).where('org_id', '=', orgId).where('email_key', '=', emailKey).where('accepted_at', 'is', null).where('revoked_at', 'is', null).execute()
}

export async function insertInvitation(
  trx: Transaction<DB>,
  row: { id: string; orgId: string; email: string; emailKey: string; role: 'admin' | 'member'; tokenHash: Buffer; invitedBy: string; emailStatus: 'not_configured' | 'sending' },
): Promise<{ expires_at: Date | string }> {
  return trx
    .insertInto('invitations')
    .values({
      id: row.id,
      org_id: row.orgId,
      email: row.email,
      email_key: row.emailKey,
      role: row.role,
      token_hash: row.tokenHash,
      invited_by: row.invitedBy,
      expires_at: sql`now() + make_interval(secs => ${INVITATION_LIFETIME_SECONDS})`,
      email_status: row.emailStatus,
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow()
}

export async function revokeInvitation(db: Kysely<DB>, orgId: string, id: string): Promise<boolean> {
  const row = await db
    .updateTable('invitations')
    .set({ revoked_at: sql`now()` })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

export async function recordEmailOutcome(db: Kysely<DB>, orgId: string, id: string, status: 'sent' | 'failed', error: string | null): Promise<void> {
  await db.updateTable('invitations').set({ email_status: status, email_error: error }).where('org_id', '=', orgId).where('id', '=', id).execute()
}

export function isMemberByEmail(db: Kysely<DB>, orgId: string, emailKey: string): Promise<{ user_id: string } | undefined> {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('m.user_id')
    .where('m.org_id', '=', orgId)
    .where('u.email_key', '=', emailKey)
    .executeTakeFirst()
}

export interface LinkedInvitation {
  id: string
  org_id: string
  org_name: string
  email: string
  email_key: string
  role: 'admin' | 'member'
  token_hash: Uint8Array
  inviter_name: string | null
  state: 'pending' | 'expired' | 'accepted' | 'revoked'
}

/** The invitation a link points at, whatever became of it, for the acceptance page. */
export async function findInvitationOfLink(db: Kysely<DB>, id: string): Promise<LinkedInvitation | undefined> {
  const row = await db
    .selectFrom('invitations as i')
    .innerJoin('organizations as o', 'o.id', 'i.org_id')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.id', 'i.org_id', 'o.name as org_name', 'i.email', 'i.email_key', 'i.role', 'i.token_hash', 'u.name as inviter_name'])
    .select(
      sql<LinkedInvitation['state']>`CASE WHEN i.accepted_at IS NOT NULL THEN 'accepted' WHEN i.revoked_at IS NOT NULL THEN 'revoked' WHEN i.expires_at <= now() THEN 'expired' ELSE 'pending' END`.as('state'),
    )
    .where('i.id', '=', id)
    .executeTakeFirst()
  return row
}

/**
 * Uses the invitation up: one guarded statement, so of two acceptances at once exactly one wins,
 * and a revoked or expired invitation is never used. Answers the organization and role, or nothing.
 */
export function claimInvitation(trx: Transaction<DB>, id: string, userId: string): Promise<{ org_id: string; role: 'admin' | 'member' } | undefined> {
  return trx
    .updateTable('invitations')
    .set({ accepted_at: sql`now()`, accepted_by: userId })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where(sql<boolean>`expires_at > now()`)
    .returning(['org_id', 'role'])
    .executeTakeFirst()
}
