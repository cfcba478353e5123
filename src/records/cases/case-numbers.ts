/**
 * The one place that numbers cases. Each organization has its own sequence (a row of org_counters),
 * so numbers are 1, 2, 3, ... per organization; a number given to a write that then fails is not
 * given again, as with any sequence. The row lock serialises numbering within one organization only.
 *
 * Imported cases: people quote case numbers ("case 00001026"), so an imported case keeps the
 * source's number when it is numeric and free in this organization; otherwise it gets the next
 * number of the sequence, which is then moved past every number imported, so cases created later
 * never collide. The importer numbers a page in a short transaction of its own on PostgreSQL, so
 * pages need not wait for each other's commits.
 */
import { sql, type RawBuilder } from 'kysely'
import { eachKey } from '../../db/each-key.ts'
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

const NUMERIC = /^0*([1-9]\d{0,8})$/

/**
 * Numbers for a page of cases. Cases imported before keep theirs (the upsert proposes it only because
 * PostgreSQL checks NOT NULL before ON CONFLICT; the update never changes a number). `takenAhead`:
 * numbers of pages ahead that have not committed yet.
 */
export async function numberImportedCases(
  db: Executor,
  orgId: string,
  all: ReadonlyArray<{ src_id: string; sourceNumber: unknown }>,
  takenAhead: ReadonlySet<number> = new Set(),
): Promise<Map<string, number>> {
  const assigned = new Map<string, number>()
  if (all.length === 0) return assigned
  // One index probe per key (db/each-key.ts).
  const existing = await sql<{ src_id: string; n: number }>`
    SELECT w.k AS src_id, c.n
    FROM ${eachKey(all.map((c) => c.src_id), 'text', 'c', (k) => sql`SELECT case_number AS n FROM cases WHERE org_id = ${orgId} AND src_id = ${k}`)}`.execute(db)
  for (const row of existing.rows) assigned.set(row.src_id, Number(row.n))
  const cases = all.filter((c) => !assigned.has(c.src_id))
  if (cases.length === 0) return assigned
  await sql`INSERT INTO org_counters (org_id, name, value) VALUES (${orgId}, ${CASE_NUMBER_COUNTER}, 0) ON CONFLICT (org_id, name) DO NOTHING`.execute(db)
  const locked = await sql<{ value: string | number }>`SELECT value FROM org_counters WHERE org_id = ${orgId} AND name = ${CASE_NUMBER_COUNTER} FOR UPDATE`.execute(db)
  let counter = Number(locked.rows[0].value)

  const wanted = new Map<string, number>()
  for (const c of cases) {
    const m = typeof c.sourceNumber === 'string' ? NUMERIC.exec(c.sourceNumber.trim()) : null
    if (m) wanted.set(c.src_id, Number(m[1]))
  }
  const taken = new Set<number>(takenAhead)
  if (wanted.size) {
    const r = await sql<{ n: number }>`
      SELECT c.n
      FROM ${eachKey([...new Set(wanted.values())], 'int', 'c', (k) => sql`SELECT case_number AS n FROM cases WHERE org_id = ${orgId} AND case_number = ${k}`)}`.execute(db)
    for (const row of r.rows) taken.add(Number(row.n))
  }
  for (const c of cases) {
    const n = wanted.get(c.src_id)
    if (n !== undefined && !taken.has(n)) {
      assigned.set(c.src_id, n)
      taken.add(n)
      counter = Math.max(counter, n)
    }
  }
  for (const c of cases) {
    if (assigned.has(c.src_id)) continue
    do counter++
    while (taken.has(counter))
    assigned.set(c.src_id, counter)
    taken.add(counter)
  }
  await sql`UPDATE org_counters SET value = ${counter} WHERE org_id = ${orgId} AND name = ${CASE_NUMBER_COUNTER}`.execute(db)
  return assigned
}
