// How a stage's totals read ("$1,250,000" or "$1,250 + €99"), and the optimistic change of the
// summary when a card moves from one stage to another (the refetch after the move corrects it).
import { badgeColor } from '../../kinds.ts'
import type { PipelineSummary } from './usePipeline.ts'

type Amounts = NonNullable<PipelineSummary['stages'][number]['amounts']>

export function formatMoney(total: number, currency: string | null): string {
  if (currency && /^[A-Z]{3}$/.test(currency)) {
    try {
      return total.toLocaleString(undefined, { style: 'currency', currency, maximumFractionDigits: 0 })
    } catch {
      // an unknown currency code: plain number below
    }
  }
  return total.toLocaleString(undefined, { maximumFractionDigits: 0 })
}

export function formatAmounts(amounts: Amounts): string {
  if (amounts.length === 0) return formatMoney(0, 'USD')
  return amounts.map((a) => formatMoney(Number(a.total), a.currency)).join(' + ')
}

export function stageColor(stage: string | null): string {
  return stage ? badgeColor(stage) : 'gray'
}

function addAmount(amounts: Amounts | null, currency: string | null, delta: number): Amounts | null {
  if (amounts === null || !Number.isFinite(delta) || delta === 0) return amounts
  const found = amounts.find((a) => a.currency === currency)
  if (!found) return [...amounts, { currency, total: delta.toFixed(2) }]
  return amounts.map((a) => (a === found ? { ...a, total: (Number(a.total) + delta).toFixed(2) } : a))
}

export function moveInSummary(summary: PipelineSummary, from: string, to: string, amount: unknown, currency: unknown): PipelineSummary {
  const value = amount === null || amount === undefined ? 0 : Number(amount)
  const cur = typeof currency === 'string' ? currency : null
  return {
    ...summary,
    stages: summary.stages.map((s) => {
      if (s.stage === from) return { ...s, count: Math.max(0, s.count - 1), amounts: addAmount(s.amounts, cur, -value) }
      if (s.stage === to) return { ...s, count: s.count + 1, amounts: addAmount(s.amounts, cur, value) }
      return s
    }),
  }
}
