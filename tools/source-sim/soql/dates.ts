// Owns SOQL date literals (TODAY, LAST_N_DAYS:30, THIS_MONTH, ...) as [start, end) millisecond
// ranges in UTC, and parsing the platform's date/datetime strings to milliseconds.
import { malformed } from '../errors.ts'

const DAY = 86_400_000

export function toMs(v: unknown): number | null {
  if (typeof v !== 'string' || v.length < 10) return null
  if (v.length === 10) return Date.UTC(+v.slice(0, 4), +v.slice(5, 7) - 1, +v.slice(8, 10))
  const ms = Date.parse(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))
  return Number.isNaN(ms) ? null : ms
}

function dayStart(ms: number): number {
  return Math.floor(ms / DAY) * DAY
}
function monthStart(y: number, m: number): number {
  return Date.UTC(y, m, 1)
}

/** [start, end) of a date literal, relative to `now`. */
export function dateLiteralRange(literal: string, n: number | undefined, now = Date.now()): [number, number] {
  const today = dayStart(now)
  const d = new Date(today)
  const y = d.getUTCFullYear(), m = d.getUTCMonth()
  const weekStart = today - d.getUTCDay() * DAY // weeks start on Sunday (default locale)
  const name = literal.toUpperCase().split(':')[0]
  const k = n ?? 0
  switch (name) {
    case 'TODAY': return [today, today + DAY]
    case 'YESTERDAY': return [today - DAY, today]
    case 'TOMORROW': return [today + DAY, today + 2 * DAY]
    case 'THIS_WEEK': return [weekStart, weekStart + 7 * DAY]
    case 'LAST_WEEK': return [weekStart - 7 * DAY, weekStart]
    case 'NEXT_WEEK': return [weekStart + 7 * DAY, weekStart + 14 * DAY]
    case 'THIS_MONTH': return [monthStart(y, m), monthStart(y, m + 1)]
    case 'LAST_MONTH': return [monthStart(y, m - 1), monthStart(y, m)]
    case 'NEXT_MONTH': return [monthStart(y, m + 1), monthStart(y, m + 2)]
    case 'THIS_YEAR': return [Date.UTC(y, 0, 1), Date.UTC(y + 1, 0, 1)]
    case 'LAST_YEAR': return [Date.UTC(y - 1, 0, 1), Date.UTC(y, 0, 1)]
    case 'NEXT_YEAR': return [Date.UTC(y + 1, 0, 1), Date.UTC(y + 2, 0, 1)]
    case 'LAST_90_DAYS': return [today - 90 * DAY, today + DAY]
    case 'NEXT_90_DAYS': return [today + DAY, today + 91 * DAY]
    case 'LAST_N_DAYS': return [today - k * DAY, today + DAY]
    case 'NEXT_N_DAYS': return [today + DAY, today + (k + 1) * DAY]
    case 'N_DAYS_AGO': return [today - k * DAY, today - (k - 1) * DAY]
    case 'LAST_N_WEEKS': return [weekStart - k * 7 * DAY, weekStart]
    case 'NEXT_N_WEEKS': return [weekStart + 7 * DAY, weekStart + (k + 1) * 7 * DAY]
    case 'LAST_N_MONTHS': return [monthStart(y, m - k), monthStart(y, m)]
    case 'NEXT_N_MONTHS': return [monthStart(y, m + 1), monthStart(y, m + 1 + k)]
    case 'LAST_N_YEARS': return [Date.UTC(y - k, 0, 1), Date.UTC(y, 0, 1)]
    case 'NEXT_N_YEARS': return [Date.UTC(y + 1, 0, 1), Date.UTC(y + 1 + k, 0, 1)]
    default: throw malformed(`unsupported date literal: ${literal}`)
  }
}
