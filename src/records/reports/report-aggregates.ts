/**
 * The aggregates behind the Reports page (src/reports, docs/reports.md), computed by PostgreSQL
 * with GROUP BY over one organization's records, so the answer is a few dozen rows whatever the
 * number of records. Each takes a period (`from` inclusive, `to` exclusive, as dates) and an
 * optional owner. Amounts are the caller's to see: without erp:read every amount is null
 * (record-access.ts), as in lists and the pipeline.
 */
import { sql, type RawBuilder } from 'kysely'
import type { AuthContext } from '../../shared/auth-context.ts'
import { activityKind, caseKind, opportunityKind } from '../kinds/index.ts'
import { assertMayRead, hiddenFields } from '../record-access.ts'
import type { Executor } from '../record.repository.ts'

export interface ReportFilter {
  /** First day of the period (YYYY-MM-DD), inclusive. */
  from: string
  /** Day after the period's last day (YYYY-MM-DD), exclusive. */
  to: string
  ownerId?: string
}

const owned = (f: ReportFilter): RawBuilder<unknown> => (f.ownerId ? sql`AND owner_id = ${f.ownerId}` : sql``)
/** A timestamp in the period: [from, to) at UTC midnight. */
const instantIn = (column: string, f: ReportFilter) => sql`${sql.ref(column)} >= CAST(${f.from} AS date) AND ${sql.ref(column)} < CAST(${f.to} AS date)`

const amountsVisibleTo = (auth: AuthContext) => !hiddenFields(opportunityKind, auth).includes('amount')

export interface PipelineCell {
  stage: string | null
  owner_id: string | null
  currency: string | null
  count: number
  amount: string | null
}

/** Opportunities closing in the period (close_date), by stage, owner and currency. */
export async function pipelineByStageAndOwner(db: Executor, auth: AuthContext, f: ReportFilter): Promise<{ rows: PipelineCell[]; amountsVisible: boolean }> {
  assertMayRead(opportunityKind, auth)
  const amountsVisible = amountsVisibleTo(auth)
  const r = await sql<PipelineCell>`
    SELECT stage, owner_id, currency, count(*)::int AS count, sum(amount)::text AS amount
    FROM opportunities
    WHERE org_id = ${auth.orgId} AND close_date >= CAST(${f.from} AS date) AND close_date < CAST(${f.to} AS date) ${owned(f)}
    GROUP BY stage, owner_id, currency ORDER BY stage, owner_id, currency`.execute(db)
  return { rows: r.rows.map((row) => ({ ...row, count: Number(row.count), amount: amountsVisible ? row.amount : null })), amountsVisible }
}

export interface WonLostCell {
  month: string
  stage: 'closed_won' | 'closed_lost'
  currency: string | null
  count: number
  amount: string | null
}

/** Opportunities won and lost in the period, by month of their close date (and currency). */
export async function wonLostByMonth(db: Executor, auth: AuthContext, f: ReportFilter): Promise<{ rows: WonLostCell[]; amountsVisible: boolean }> {
  assertMayRead(opportunityKind, auth)
  const amountsVisible = amountsVisibleTo(auth)
  const r = await sql<WonLostCell>`
    SELECT to_char(date_trunc('month', close_date), 'YYYY-MM-DD') AS month, stage, currency, count(*)::int AS count, sum(amount)::text AS amount
    FROM opportunities
    WHERE org_id = ${auth.orgId} AND stage IN ('closed_won', 'closed_lost')
      AND close_date >= CAST(${f.from} AS date) AND close_date < CAST(${f.to} AS date) ${owned(f)}
    GROUP BY 1, stage, currency ORDER BY 1, stage, currency`.execute(db)
  return { rows: r.rows.map((row) => ({ ...row, count: Number(row.count), amount: amountsVisible ? row.amount : null })), amountsVisible }
}

export interface CaseCell {
  /** Monday of the week (ISO weeks, UTC). */
  week: string
  priority: string | null
  opened: number
  closed: number
}

/**
 * Cases opened (created_at) and closed (closed_at) in the period, by ISO week and priority: two
 * aggregates, one per event, each reading only the cases of its own period.
 */
export async function casesByWeek(db: Executor, auth: AuthContext, f: ReportFilter): Promise<CaseCell[]> {
  assertMayRead(caseKind, auth)
  const r = await sql<CaseCell>`
    SELECT week, priority, sum(opened)::int AS opened, sum(closed)::int AS closed FROM (
      SELECT to_char(date_trunc('week', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week, priority, count(*) AS opened, 0 AS closed
      FROM cases WHERE org_id = ${auth.orgId} AND ${instantIn('created_at', f)} ${owned(f)} GROUP BY 1, 2
      UNION ALL
      SELECT to_char(date_trunc('week', closed_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week, priority, 0 AS opened, count(*) AS closed
      FROM cases WHERE org_id = ${auth.orgId} AND ${instantIn('closed_at', f)} ${owned(f)} GROUP BY 1, 2
    ) AS t GROUP BY week, priority ORDER BY week, priority`.execute(db)
  return r.rows.map((row) => ({ ...row, opened: Number(row.opened), closed: Number(row.closed) }))
}

export interface ActivityCell {
  owner_id: string | null
  kind: string
  status: string | null
  count: number
}

/** Activities created in the period, by owner, kind and status. */
export async function activitiesByOwner(db: Executor, auth: AuthContext, f: ReportFilter): Promise<ActivityCell[]> {
  assertMayRead(activityKind, auth)
  const r = await sql<ActivityCell>`
    SELECT owner_id, kind, status, count(*)::int AS count
    FROM activities WHERE org_id = ${auth.orgId} AND ${instantIn('created_at', f)} ${owned(f)}
    GROUP BY owner_id, kind, status ORDER BY owner_id, kind, status`.execute(db)
  return r.rows.map((row) => ({ ...row, count: Number(row.count) }))
}
