/**
 * Which source users have a member in the organization: owners (and comment authors) are matched
 * by email, compared in normal form (mapping/normalize.ts). Users with no match own records that
 * will be imported without an owner unless they are invited first; users who cannot be invited
 * (no email, inactive) are the ones whose records lose their owner for good.
 */
import type { AnalysisContext, AnalysisReport, SourceMetadata } from '../migration.types.ts'
import { normalizeEmail } from '../mapping/normalize.ts'

export function matchOwners(users: SourceMetadata['users'], members: AnalysisContext['members']): AnalysisReport['owners'] {
  const known = new Set(members.map((m) => normalizeEmail(m.email)).filter((e) => e !== null))
  const unmatched = users
    .filter((u) => {
      const email = normalizeEmail(u.Email)
      return email === null || !known.has(email)
    })
    .map((u) => ({ src_id: u.Id, name: u.Name, email: u.Email, active: u.IsActive }))
  return { source_users: users.length, matched: users.length - unmatched.length, unmatched }
}

/** An org always has users: none read means they could not be read. */
export function usersUnreadable(metadata: SourceMetadata): boolean {
  return metadata.users.length === 0 || (metadata.unreadable ?? []).some((u) => u.object === 'User')
}

/**
 * A source user with no member here whose records lose their owner for good: no email to match or
 * invite by, or inactive (gone from the company; nobody to invite). Active users with an email can
 * be invited before the run.
 */
export function cannotBeInvited(u: AnalysisReport['owners']['unmatched'][number]): boolean {
  return !u.active || !u.email || u.email.trim() === ''
}
