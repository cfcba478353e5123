/**
 * Whether an event passes a webhook's filter (filter-grammar.ts), judged on the body the endpoint
 * would receive: `data.object` for field conditions, `data.previous` (the changed fields' old
 * values) for `changed`. A field the object lacks reads as null.
 */
import type { Comparison, Scalar, WebhookFilter } from './filter-grammar.ts'

interface EventData {
  data?: { object?: Record<string, unknown>; previous?: Record<string, unknown> }
}

export function filterAccepts(filter: WebhookFilter, event: EventData): boolean {
  if ('all' in filter) return filter.all.every((f) => filterAccepts(f, event))
  if ('any' in filter) return filter.any.some((f) => filterAccepts(f, event))
  if ('not' in filter) return !filterAccepts(filter.not, event)
  if ('changed' in filter) return event.data?.previous !== undefined && Object.hasOwn(event.data.previous, filter.changed)
  const actual = (event.data?.object?.[filter.field] ?? null) as Scalar
  const op = Object.keys(filter).find((k) => k !== 'field') as Comparison
  const expected = (filter as Record<string, unknown>)[op]
  switch (op) {
    case 'eq':
      return same(actual, expected as Scalar)
    case 'ne':
      return !same(actual, expected as Scalar)
    case 'in':
      return (expected as Scalar[]).some((v) => same(actual, v))
    default: {
      const order = compare(actual, expected as Scalar)
      if (order === null) return false
      return op === 'gt' ? order > 0 : op === 'gte' ? order >= 0 : op === 'lt' ? order < 0 : order <= 0
    }
  }
}

/** Amounts travel as decimal strings ("1200.00"): a number in the filter compares by value. */
function same(actual: Scalar, expected: Scalar): boolean {
  if (typeof expected === 'number' && typeof actual === 'string') return actual.trim() !== '' && Number(actual) === expected
  if (typeof actual === 'number' && typeof expected === 'string') return expected.trim() !== '' && Number(expected) === actual
  return actual === expected
}

/** Sign of actual - expected; null when either is absent or they are not comparable. */
function compare(actual: Scalar, expected: Scalar): number | null {
  if (actual === null || expected === null || typeof actual === 'boolean') return null
  if (typeof expected === 'number' || /^-?\d+(\.\d+)?$/.test(String(expected))) {
    const a = Number(actual)
    const b = Number(expected)
    return Number.isNaN(a) || Number.isNaN(b) ? null : Math.sign(a - b)
  }
  // Dates and times: an RFC 3339 time compares by instant, a date (YYYY-MM-DD) as such.
  const a = Date.parse(String(actual))
  const b = Date.parse(String(expected))
  return Number.isNaN(a) || Number.isNaN(b) ? null : Math.sign(a - b)
}
