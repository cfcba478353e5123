/**
 * The aggregates' rows shaped for charts: every stage, month and week of the period present (empty
 * ones as zeros, so a chart's axis does not skip), amounts per currency (amounts of different
 * currencies do not add up), null when the caller may not read amounts.
 */
import { OPPORTUNITY_STAGES } from '../records/contracts.ts'

export interface Amount {
  currency: string | null
  total: string
}

/** Exact decimal sums per currency (text, two decimals), added as cents in BigInt. */
export function addAmounts(rows: readonly { currency: string | null; amount: string | null }[]): Amount[] {
  const cents = new Map<string | null, bigint>()
  for (const r of rows) if (r.amount !== null) cents.set(r.currency, (cents.get(r.currency) ?? 0n) + toCents(r.amount))
  return [...cents].map(([currency, c]) => ({ currency, total: fromCents(c) })).sort((a, b) => String(a.currency).localeCompare(String(b.currency)))
}

function toCents(text: string): bigint {
  const negative = text.startsWith('-')
  const [whole, fraction = ''] = text.replace('-', '').split('.')
  const c = BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2))
  return negative ? -c : c
}

function fromCents(c: bigint): string {
  const sign = c < 0n ? '-' : ''
  const abs = c < 0n ? -c : c
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`
}

/** Stages in pipeline order, then any other value held (imported data, null). */
export function stageOrder(held: readonly (string | null)[]): (string | null)[] {
  const known: (string | null)[] = [...OPPORTUNITY_STAGES]
  return [...known, ...new Set(held.filter((s) => !known.includes(s)))]
}
