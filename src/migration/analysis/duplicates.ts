/**
 * Duplicate email addresses in the sampled records of an object, compared in normal form (case and
 * surrounding whitespace ignored, mapping/normalize.ts): "Ann@X.com" and " ann@x.com" are one
 * person twice. Also: leads whose address is already a contact's, which a lead import would duplicate.
 */
import type { AnalysisReport, SourceMetadata } from '../migration.types.ts'
import { normalizeEmail } from '../mapping/normalize.ts'

const EXAMPLES = 5

export function findDuplicateEmails(samples: SourceMetadata['email_samples']): AnalysisReport['duplicates'] {
  const out: AnalysisReport['duplicates'] = []
  for (const [object, emails] of Object.entries(samples)) {
    const counts = new Map<string, number>()
    for (const e of emails) {
      const n = normalizeEmail(e)
      if (n !== null) counts.set(n, (counts.get(n) ?? 0) + 1)
    }
    const groups = [...counts].filter(([, c]) => c > 1)
    out.push({
      object,
      sampled: emails.length,
      duplicate_groups: groups.length,
      examples: groups.slice(0, EXAMPLES).map(([email, c]) => `${email} (${c} records)`),
    })
  }
  return out
}

/** Lead addresses (normalised) that a sampled contact already has. */
export function leadsMatchingContacts(samples: SourceMetadata['email_samples']): string[] {
  const contacts = new Set((samples.Contact ?? []).map(normalizeEmail).filter((e) => e !== null))
  const overlap = new Set<string>()
  for (const e of samples.Lead ?? []) {
    const n = normalizeEmail(e)
    if (n !== null && contacts.has(n)) overlap.add(n)
  }
  return [...overlap]
}
