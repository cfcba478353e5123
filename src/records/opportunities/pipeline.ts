/**
 * The pipeline: opportunity count and amount by stage (and currency, since amounts of different
 * currencies do not add up), for one organization, served by the (org_id, stage, id) index.
 * Totals are amounts, so a caller who may not read amounts gets counts only (record-access.ts).
 */
import { sql } from 'kysely'
import type { AuthContext } from '../../shared/auth-context.ts'
import { assertMayRead, hiddenFields } from '../record-access.ts'
import { opportunityKind } from '../kinds/index.ts'
import { OPPORTUNITY_STAGES } from '../kinds/opportunity.kind.ts'
import type { Executor } from '../record.repository.ts'
import { memberFilterValue, withCallerResolved } from '../owner-filter.ts'

export interface StageRow {
  stage: string | null
  currency: string | null
  count: number
  /** Exact decimal text; null when no opportunity of the group has an amount. */
  total: string | null
}

export interface Pipeline {
  rows: StageRow[]
  /** False when the caller may not read amounts: every `total` is then null. */
  amountsVisible: boolean
}

/** `owner`: the `owner_id` filter as the list takes it (a user id, `me`, `none`); absent: every owner. */
export async function pipelineByStage(executor: Executor, auth: AuthContext, owner?: string): Promise<Pipeline> {
  assertMayRead(opportunityKind, auth)
  const amountsVisible = !hiddenFields(opportunityKind, auth).includes('amount')
  const orgId = auth.orgId
  const res = await sql<StageRow>`
    SELECT stage, currency, count(*)::int AS count, sum(amount)::text AS total
    FROM opportunities WHERE org_id = ${orgId}${ownerCondition(auth, owner)}
    GROUP BY stage, currency ORDER BY stage, currency`.execute(executor)
  return { rows: res.rows.map((r) => ({ ...r, count: Number(r.count), total: amountsVisible ? r.total : null })), amountsVisible }
}

function ownerCondition(auth: AuthContext, owner: string | undefined) {
  if (owner === undefined) return sql``
  const field = opportunityKind.fields.find((f) => f.name === 'owner_id')!
  const [filter] = withCallerResolved({ filters: [{ field, value: memberFilterValue(field, owner) }] }, auth).filters
  return filter!.value === null ? sql` AND owner_id IS NULL` : sql` AND owner_id = CAST(${filter!.value} AS uuid)`
}

export interface StageSummary {
  stage: string | null
  count: number
  /** Totals per currency, or null when the caller may not read amounts. */
  amounts: { currency: string | null; total: string }[] | null
}

export interface PipelineSummary {
  stages: StageSummary[]
  total_count: number
  amounts_visible: boolean
}

/**
 * The pipeline as REST and MCP answer it: every stage of the enumeration in pipeline order (empty
 * ones too, so a board has all its columns), then any other stage values found (imported data,
 * null), each with its count and, when the caller may read amounts, its totals per currency.
 */
export async function pipelineSummary(executor: Executor, auth: AuthContext, owner?: string): Promise<PipelineSummary> {
  const { rows, amountsVisible } = await pipelineByStage(executor, auth, owner)
  const known: (string | null)[] = [...OPPORTUNITY_STAGES]
  const order = [...known, ...new Set(rows.map((r) => r.stage).filter((s) => !known.includes(s)))]
  const stages = order.map((stage) => {
    const group = rows.filter((r) => r.stage === stage)
    const amounts = group.filter((r) => r.total !== null).map((r) => ({ currency: r.currency, total: r.total as string }))
    return { stage, count: group.reduce((n, r) => n + r.count, 0), amounts: amountsVisible ? amounts : null }
  })
  return { stages, total_count: rows.reduce((n, r) => n + r.count, 0), amounts_visible: amountsVisible }
}
