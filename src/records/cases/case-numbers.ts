/**
 * The one place that numbers cases. Each organization has its own sequence (a row of org_counters),
 * so numbers are 1, 2, 3, ... per organization; a number given to a write that then fails is not
 * given again, as with any sequence. The row lock serialises numbering within one organization only.
 */
import { sql, type RawBuilder } from 'kysely'
import type { Executor } from '../record.repository.ts'

/** The per-organization sequence cases are numbered from. */
export const CASE_NUMBER_COUNTER = 'case_number'

/**
 * The next number as a CTE named `counter`, for the INSERT that uses it: numbering and insert are one
 * statement, so a single create costs no extra round trip.
 */
export function nextCaseNumberCte(orgId: string): RawBuilder<unknown> {
  return sql`counter AS (
    INSERT INTO org_counters AS c (org_id, name, value) VALUES (${orgId}, ${CASE_NUMBER_COUNTER}, 1)
    ON CONFLICT (org_id, name) DO UPDATE SET value = c.value + 1 RETURNING value)`
}

/** `count` consecutive numbers for the cases of a bulk write, in one statement. */
export async function allocateCaseNumbers(db: Executor, orgId: string, count: number): Promise<number[]> {
  if (count === 0) return []
  const res = await sql<{ value: string | number }>`
    INSERT INTO org_counters AS c (org_id, name, value) VALUES (${orgId}, ${CASE_NUMBER_COUNTER}, ${count})
    ON CONFLICT (org_id, name) DO UPDATE SET value = c.value + ${count} RETURNING value`.execute(db)
  const last = Number(res.rows[0].value)
  return Array.from({ length: count }, (_, i) => last - count + 1 + i)
}
