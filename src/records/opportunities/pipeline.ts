/**
 * The pipeline: opportunity count and amount by stage (and currency, since amounts of different
 * currencies do not add up), for one organization, served by the (org_id, stage, id) index.
 * Totals are amounts, so a caller who may not read amounts gets counts only (record-access.ts).
 */
import { CompiledQuery } from 'kysely'
import type { AuthContext } from '../../shared/auth-context.ts'
import { assertMayRead, assertMayUseFields, hiddenFields } from '../record-access.ts'
import { resolveCustomFilters } from '../custom-fields/custom-filters.ts'
import { listConditions } from '../list-sql.ts'
import { bind, type ListOptions } from '../record.repository.ts'
import { fieldsUsed } from '../record-query.ts'
import { opportunityKind } from '../kinds/index.ts'
import { OPPORTUNITY_STAGES } from '../kinds/opportunity.kind.ts'
import type { Executor } from '../record.repository.ts'
import { withCallerResolved } from '../owner-filter.ts'

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

/** Without filters, the whole pipeline; with them (a board's view), the opportunities the list would show with those filters. */
export async function pipelineByStage(executor: Executor, auth: AuthContext, filters?: Omit<ListOptions, 'limit'>): Promise<Pipeline> {
  assertMayRead(opportunityKind, auth)
  const amountsVisible = !hiddenFields(opportunityKind, auth).includes('amount')
  const params: unknown[] = [auth.orgId]
  let where = 'r.org_id = $1'
  if (filters) {
    assertMayUseFields(opportunityKind, auth, fieldsUsed(filters))
    // `owner_id=me` names the caller (owner-filter.ts).
    const resolved = withCallerResolved(await resolveCustomFilters(executor, auth.orgId, opportunityKind, filters), auth)
    const conditions = listConditions(opportunityKind, resolved, bind(params))
    if (filters.ids) conditions.push(`r.id = ANY(${bind(params)([...new Set(filters.ids)], 'uuid[]')})`)
    where = conditions.join(' AND ')
  }
  const text = `SELECT r.stage, r.currency, count(*)::int AS count, sum(r.amount)::text AS total
    FROM opportunities r WHERE ${where} GROUP BY r.stage, r.currency ORDER BY r.stage, r.currency`
  const res = await executor.executeQuery<StageRow>(CompiledQuery.raw(text, params))
  return { rows: res.rows.map((r) => ({ ...r, count: Number(r.count), total: amountsVisible ? r.total : null })), amountsVisible }
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
export async function pipelineSummary(executor: Executor, auth: AuthContext, filters?: Omit<ListOptions, 'limit'>): Promise<PipelineSummary> {
  const { rows, amountsVisible } = await pipelineByStage(executor, auth, filters)
  const known: (string | null)[] = [...OPPORTUNITY_STAGES]
  const order = [...known, ...new Set(rows.map((r) => r.stage).filter((s) => !known.includes(s)))]
  const stages = order.map((stage) => {
    const group = rows.filter((r) => r.stage === stage)
    const amounts = group.filter((r) => r.total !== null).map((r) => ({ currency: r.currency, total: r.total as string }))
    return { stage, count: group.reduce((n, r) => n + r.count, 0), amounts: amountsVisible ? amounts : null }
  })
  return { stages, total_count: rows.reduce((n, r) => n + r.count, 0), amounts_visible: amountsVisible }
}
