/**
 * The readiness score (source-platform.md §3.4, calibrated): the record-weighted share of `auto`
 * objects, plus PARTIAL_WEIGHT of the share in `partial` objects, as points out of 100, minus
 * penalties for what puts the run at risk, clamped to 0-100. Shares are weighted by record count
 * (an empty org weighs each object once). The explanation spells out every term, so the number can
 * be checked by hand. READY_THRESHOLD and above reads "ready".
 *
 * Two rules shape the penalties:
 * - A penalty signals loss or a decision to take, not work the administrator does anyway: source
 *   users who are not members yet can be invited before the run (a medium risk says so), so only
 *   users who cannot be matched at all (no email) or should not be invited (inactive) cost points.
 * - What could not be read costs more than the worst that reading it could have shown (UNREAD_MARGIN
 *   on top), so an analysis never looks better because part of the source could not be read.
 * - Blockers (anything unread, an allowance smaller than the estimate, heavy automation, heavy
 *   duplicates) hold the score under READY_THRESHOLD whatever the rest: an org is not ready until
 *   they are dealt with, however well its fields map.
 */
import type { ObjectAnalysis, ReadinessScore } from '../migration.types.ts'

/** A score from this up reads "ready": the records import, nothing unread, no heavy risk. */
export const READY_THRESHOLD = 80

/**
 * A `partial` object's records import, with some values kept in custom_fields or computed by the
 * source; it counts almost in full. `manual_review` counts nothing: its records do not move as is.
 */
export const PARTIAL_WEIGHT = 0.95

/** What an unread part costs above the worst its reading could have cost. */
const UNREAD_MARGIN = 5

export const PENALTIES = {
  /** The estimated calls exceed the source's remaining daily API allowance. */
  quota_insufficient: 20,
  /** The allowance covers the estimate less than twice. */
  quota_tight: 5,
  /** The allowance (/limits) could not be read: it may be insufficient. */
  quota_unknown: 20 + UNREAD_MARGIN,
  /** Per object whose describe or count could not be read, at most 3 objects (it also counts as manual_review). */
  unreadable_object: 10,
  unreadable_max: 30,
  /** Times the share of source users whose records lose their owner for good (no email, or inactive). */
  owners_lost: 15,
  /** The source users could not be read: no owner can be matched. */
  users_unreadable: 15 + UNREAD_MARGIN,
  /** The record types could not be read: records keep the type's id instead of its name. */
  record_types_unreadable: UNREAD_MARGIN,
  /** Org-wide automation at level high (weighted from 31), and heavy (weighted from AUTOMATION_HEAVY). */
  automation_high: 5,
  automation_heavy: 20,
  /** Some automation could not be read: it may be heavy. */
  automation_unreadable: 20 + UNREAD_MARGIN,
  /** Per object whose email sample has duplicates: light, or heavy (DUPLICATES_HEAVY of the sample or more). */
  duplicates: 5,
  duplicates_heavy: 10,
  /** Per object whose email sample could not be read: its duplicates may be heavy. */
  duplicates_unreadable: 10 + UNREAD_MARGIN,
} as const

/** Weighted automation score (triggers 3, record-triggered flows 2, rules 1) that makes an org's automation heavy. */
export const AUTOMATION_HEAVY = 100
/** Share of a sample's addresses that appear more than once, from which duplicates are heavy. */
export const DUPLICATES_HEAVY = 0.05

export interface ReadinessInput {
  objects: ReadonlyArray<Pick<ObjectAnalysis, 'name' | 'record_count' | 'compatibility'>>
  quota: 'ok' | 'tight' | 'insufficient' | 'unknown'
  unreadable: readonly string[]
  /** Source users; `lost`: unmatched ones that cannot be matched (no email) or should not be invited (inactive). */
  owners: { source_users: number; lost: number; unreadable: boolean }
  recordTypesUnreadable: boolean
  /** Org-wide weighted automation score and level; `unreadable`: what could not be read. */
  automation: { weighted_score: number; level: string; unreadable: readonly string[] }
  /** Per sampled object: duplicate groups and sample size. */
  duplicates: ReadonlyArray<{ object: string; duplicate_groups: number; sampled: number }>
  /** Objects whose email sample could not be read. */
  duplicatesUnreadable: readonly string[]
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`

/** `blocks`: a blocker (see above); only used here, the report lists reason and points. */
type Penalty = ReadinessScore['penalties'][number] & { blocks?: boolean }

function allowance(input: ReadinessInput): Penalty[] {
  if (input.quota === 'insufficient') return [{ reason: 'the source\'s remaining daily API allowance is smaller than the estimated calls', points: PENALTIES.quota_insufficient, blocks: true }]
  if (input.quota === 'tight') return [{ reason: 'the source\'s remaining daily API allowance is less than twice the estimated calls', points: PENALTIES.quota_tight }]
  if (input.quota === 'unknown') return [{ reason: 'the source\'s daily API allowance could not be read (unknown, so possibly too small)', points: PENALTIES.quota_unknown, blocks: true }]
  return []
}

function owners(input: ReadinessInput): Penalty[] {
  const o = input.owners
  if (o.unreadable) return [{ reason: 'the source users could not be read (no owner can be matched)', points: PENALTIES.users_unreadable, blocks: true }]
  if (o.lost === 0 || o.source_users === 0) return []
  const points = Math.max(1, Math.round((PENALTIES.owners_lost * o.lost) / o.source_users))
  return [{ reason: `${o.lost} of ${o.source_users} source users have no member here and cannot be invited (no email, or inactive): their records get no owner`, points }]
}

function automation(input: ReadinessInput): Penalty[] {
  const a = input.automation
  if (a.unreadable.length > 0) return [{ reason: `part of the source's automation could not be read (${a.unreadable.length} of the 3 reads of triggers, flows and workflow rules failed; unknown, so possibly heavy)`, points: PENALTIES.automation_unreadable, blocks: true }]
  if (a.weighted_score >= AUTOMATION_HEAVY) return [{ reason: `heavy automation in the source (weighted ${a.weighted_score}) that the service does not run`, points: PENALTIES.automation_heavy, blocks: true }]
  if (a.level === 'high') return [{ reason: `automation in the source at level high (weighted ${a.weighted_score}) that the service does not run`, points: PENALTIES.automation_high }]
  return []
}

function duplicates(input: ReadinessInput): Penalty[] {
  const out: Penalty[] = []
  for (const object of input.duplicatesUnreadable) out.push({ reason: `the ${object} email sample could not be read (its duplicates are unknown)`, points: PENALTIES.duplicates_unreadable, blocks: true })
  for (const d of input.duplicates.filter((x) => x.duplicate_groups > 0)) {
    const share = d.sampled > 0 ? d.duplicate_groups / d.sampled : 0
    const heavy = share >= DUPLICATES_HEAVY
    out.push({ reason: `duplicate email addresses in the sample of ${d.object} (${d.duplicate_groups} of ${d.sampled}${heavy ? ', heavy' : ''})`, points: heavy ? PENALTIES.duplicates_heavy : PENALTIES.duplicates, blocks: heavy })
  }
  return out
}

export function computeReadiness(input: ReadinessInput): ReadinessScore {
  const total = input.objects.reduce((n, o) => n + o.record_count, 0)
  const weight = (o: { record_count: number }) => (total > 0 ? o.record_count : 1)
  const all = input.objects.reduce((n, o) => n + weight(o), 0)
  const share = (c: string) => (all === 0 ? 0 : input.objects.filter((o) => o.compatibility === c).reduce((n, o) => n + weight(o), 0) / all)
  const auto = share('auto')
  const partial = share('partial')
  const base = 100 * (auto + PARTIAL_WEIGHT * partial)

  const penalties: Penalty[] = [...allowance(input)]
  if (input.unreadable.length > 0) {
    penalties.push({
      reason: `${input.unreadable.length} object(s) could not be read (${input.unreadable.join(', ')})`,
      points: Math.min(PENALTIES.unreadable_max, PENALTIES.unreadable_object * input.unreadable.length),
      blocks: true,
    })
  }
  penalties.push(...owners(input))
  if (input.recordTypesUnreadable) penalties.push({ reason: 'the record types could not be read (records would keep the type\'s id, not its name)', points: PENALTIES.record_types_unreadable, blocks: true })
  penalties.push(...automation(input), ...duplicates(input))
  const deducted = penalties.reduce((n, p) => n + p.points, 0)
  const computed = Math.max(0, Math.min(100, Math.round(base - deducted)))
  const blocked = penalties.some((p) => p.blocks)
  const score = blocked ? Math.min(computed, READY_THRESHOLD - 1) : computed

  const basis = total > 0 ? `of the ${total.toLocaleString('en-US')} records` : 'of the objects (no records counted, so each object weighs the same)'
  const explanation =
    `${pct(auto)} ${basis} are in objects scored auto (counted in full) and ${pct(partial)} in objects scored partial (counted ${PARTIAL_WEIGHT}); ` +
    `manual_review objects count nothing. That gives ${base.toFixed(1)} points` +
    (penalties.length > 0 ? `, minus ${penalties.map((p) => `${p.points} because ${p.reason}`).join(', minus ')}` : ', with no penalties') +
    `, rounded and kept within 0-100 (${READY_THRESHOLD} or more reads ready)` +
    (score < computed ? `: ${computed}, held under ${READY_THRESHOLD} because ${penalties.filter((p) => p.blocks).map((p) => p.reason).join(' and ')}: ${score}.` : `: ${score}.`)
  return { score, auto_share: round3(auto), partial_share: round3(partial), penalties: penalties.map(({ reason, points }) => ({ reason, points })), explanation }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000
}
