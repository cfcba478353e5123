/**
 * The pipeline: opportunity count and amount by stage (and currency, since amounts of different
 * currencies do not add up), for one organization, served by the (org_id, stage, id) index.
 * Totals are amounts, so a caller who may not read amounts gets counts only (record-access.ts).
 */
import { sql } from 'kysely'
import type { AuthContext } from '../../shared/auth-context.ts'
import { assertMayRead, hiddenFields } from '../record-access.ts'
import { opportunityKind } from '../kinds/index.ts'
import type { Executor } from '../record.repository.ts'

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

export async function pipelineByStage(executor: Executor, auth: AuthContext): Promise<Pipeline> {
  assertMayRead(opportunityKind, auth)
  const amountsVisible = !hiddenFields(opportunityKind, auth).includes('amount')
  const orgId = auth.orgId
  const res = await sql<StageRow>`
    SELECT stage, currency, count(*)::int AS count, sum(amount)::text AS total
    FROM opportunities WHERE org_id = ${orgId}
    GROUP BY stage, currency ORDER BY stage, currency`.execute(executor)
  return { rows: res.rows.map((r) => ({ ...r, count: Number(r.count), total: amountsVisible ? r.total : null })), amountsVisible }
}
