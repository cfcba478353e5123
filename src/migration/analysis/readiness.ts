/**
 * The readiness score (source-platform.md §3.4): the share of records in `auto` objects, plus half
 * the share in `partial` objects, as points out of 100, minus fixed penalties for what puts the
 * whole run at risk, clamped to 0-100. Shares are weighted by record count (an empty org weighs
 * each object once). The explanation spells out every term, so the number can be checked by hand.
 */
import type { ObjectAnalysis, ReadinessScore } from '../migration.types.ts'

export const PENALTIES = {
  /** The estimated calls exceed the source's remaining daily API allowance. */
  quota_insufficient: 20,
  /** The allowance covers the estimate less than twice. */
  quota_tight: 5,
  /** Per object whose describe could not be read, at most 3 objects. */
  unreadable_object: 10,
  unreadable_max: 30,
  /** Times the share of source users with no member (owners left empty). */
  owners_unmatched: 15,
  /** Per object whose email sample has duplicates, at most 2 objects. */
  duplicates: 5,
  duplicates_max: 10,
} as const

export interface ReadinessInput {
  objects: ReadonlyArray<Pick<ObjectAnalysis, 'name' | 'record_count' | 'compatibility'>>
  quota: 'ok' | 'tight' | 'insufficient' | 'unknown'
  unreadable: readonly string[]
  owners: { source_users: number; unmatched: number }
  duplicateObjects: readonly string[]
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`

export function computeReadiness(input: ReadinessInput): ReadinessScore {
  const total = input.objects.reduce((n, o) => n + o.record_count, 0)
  const weight = (o: { record_count: number }) => (total > 0 ? o.record_count : 1)
  const all = input.objects.reduce((n, o) => n + weight(o), 0)
  const share = (c: string) => (all === 0 ? 0 : input.objects.filter((o) => o.compatibility === c).reduce((n, o) => n + weight(o), 0) / all)
  const auto = share('auto')
  const partial = share('partial')
  const base = 100 * (auto + partial / 2)

  const penalties: ReadinessScore['penalties'] = []
  if (input.quota === 'insufficient') penalties.push({ reason: 'the source\'s remaining daily API allowance is smaller than the estimated calls', points: PENALTIES.quota_insufficient })
  if (input.quota === 'tight') penalties.push({ reason: 'the source\'s remaining daily API allowance is less than twice the estimated calls', points: PENALTIES.quota_tight })
  if (input.unreadable.length > 0) {
    penalties.push({
      reason: `${input.unreadable.length} object(s) could not be read (${input.unreadable.join(', ')})`,
      points: Math.min(PENALTIES.unreadable_max, PENALTIES.unreadable_object * input.unreadable.length),
    })
  }
  if (input.owners.unmatched > 0 && input.owners.source_users > 0) {
    const points = Math.round((PENALTIES.owners_unmatched * input.owners.unmatched) / input.owners.source_users)
    if (points > 0) penalties.push({ reason: `${input.owners.unmatched} of ${input.owners.source_users} source users have no member here (their records get no owner)`, points })
  }
  if (input.duplicateObjects.length > 0) {
    penalties.push({
      reason: `duplicate email addresses in the sample of ${input.duplicateObjects.join(', ')}`,
      points: Math.min(PENALTIES.duplicates_max, PENALTIES.duplicates * input.duplicateObjects.length),
    })
  }
  const deducted = penalties.reduce((n, p) => n + p.points, 0)
  const score = Math.max(0, Math.min(100, Math.round(base - deducted)))

  const basis = total > 0 ? `of the ${total.toLocaleString('en-US')} records` : 'of the objects (no records counted, so each object weighs the same)'
  const explanation =
    `${pct(auto)} ${basis} are in objects scored auto (counted in full) and ${pct(partial)} in objects scored partial (counted half); ` +
    `manual_review objects count nothing. That gives ${base.toFixed(1)} points` +
    (penalties.length > 0 ? `, minus ${penalties.map((p) => `${p.points} because ${p.reason}`).join(', minus ')}` : ', with no penalties') +
    `, rounded and kept within 0-100: ${score}.`
  return { score, auto_share: round3(auto), partial_share: round3(partial), penalties, explanation }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000
}
