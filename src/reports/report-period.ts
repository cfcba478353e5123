/**
 * The period and owner every report is filtered by (docs/reports.md): `from` and `to` as days, both
 * included, by default the 365 days ending today (UTC); at most MAX_DAYS long, so a weekly series
 * stays a few hundred points. `owner_id` narrows to one member's records.
 */
import { uuidSchema } from '../http/schemas.ts'
import type { ReportFilter } from '../records/index.ts'
import { ValidationFailed } from '../shared/errors.ts'

export const DEFAULT_DAYS = 365
export const MAX_DAYS = 3 * 366

export const periodQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: { type: 'string', format: 'date', description: `First day of the period (YYYY-MM-DD, UTC), included. Default: ${DEFAULT_DAYS - 1} days before \`to\`.` },
    to: { type: 'string', format: 'date', description: 'Last day of the period (YYYY-MM-DD, UTC), included. Default: today.' },
    owner_id: { ...uuidSchema, description: 'Only the records this member owns.' },
  },
} as const

export interface PeriodQuery {
  from?: string
  to?: string
  owner_id?: string
}

const DAY_MS = 86_400_000
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** The period as the answer states it (both days included) and as the aggregates read it (`to` exclusive). */
export function reportFilter(query: PeriodQuery, now: Date): { period: { from: string; to: string }; filter: ReportFilter } {
  const to = query.to ?? day(now.getTime())
  const from = query.from ?? day(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS)
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1
  if (days < 1) throw new ValidationFailed('from must be on or before to.', [{ field: 'from', message: 'must be on or before to' }])
  if (days > MAX_DAYS) throw new ValidationFailed(`A report covers at most ${MAX_DAYS} days; narrow from and to.`, [{ field: 'from', message: `at most ${MAX_DAYS} days before to` }])
  return { period: { from, to }, filter: { from, to: day(Date.parse(to) + DAY_MS), ...(query.owner_id ? { ownerId: query.owner_id.toLowerCase() } : {}) } }
}

/** Every first day of a month (`month`) or Monday (`week`) from the one holding `from` to the one holding `to`. */
export function buckets(period: { from: string; to: string }, unit: 'week' | 'month'): string[] {
  const out: string[] = []
  const start = new Date(`${period.from}T00:00:00Z`)
  if (unit === 'month') start.setUTCDate(1)
  else start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7))
  for (const d = start; day(d.getTime()) <= period.to; unit === 'month' ? d.setUTCMonth(d.getUTCMonth() + 1) : d.setUTCDate(d.getUTCDate() + 7)) out.push(day(d.getTime()))
  return out
}
