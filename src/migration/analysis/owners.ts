/**
 * Which source users have a member in the organization: owners (and comment authors) are matched
 * by email, compared in normal form (mapping/normalize.ts). Users with no match own records that
 * will be imported without an owner unless they are invited first.
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
