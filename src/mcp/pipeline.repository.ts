/**
 * The one aggregate the MCP server adds: opportunity count and amount by stage (and currency,
 * since amounts of different currencies do not add up), for one organization. Served by the
 * (org_id, stage, id) index.
 */
import { sql } from 'kysely'
import type { Executor } from '../records/record.repository.ts'

export interface StageRow {
  stage: string | null
  currency: string | null
  count: number
  /** Exact decimal text; null when no opportunity of the group has an amount. */
  total: string | null
}

export async function pipelineByStage(executor: Executor, orgId: string): Promise<StageRow[]> {
  const res = await sql<StageRow>`
    SELECT stage, currency, count(*)::int AS count, sum(amount)::text AS total
    FROM opportunities WHERE org_id = ${orgId}
    GROUP BY stage, currency ORDER BY stage, currency`.execute(executor)
  return res.rows.map((r) => ({ ...r, count: Number(r.count) }))
}
