/**
 * Case numbers of imported cases. People quote case numbers ("case 00001026"), so an imported case
 * keeps the source's number when it is numeric and free in this organization; otherwise it gets the
 * next number of the organization's sequence. The sequence is then moved past every number
 * imported, so cases created later in Cairn never collide. The sequence row is locked while a page
 * is numbered (in a short transaction of its own on PostgreSQL, so pages need not wait for each
 * other's commits), which serialises numbering with case creation through the API; numbers given to
 * a page that then fails are not given again, as with any sequence.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { eachKey } from '../../db/each-key.ts'

type Executor = Kysely<DB>

/** The per-organization sequence record-rules.ts numbers cases from. */
const COUNTER = 'case_number'
const NUMERIC = /^0*([1-9]\d{0,8})$/

/**
 * Numbers for a page of cases. Cases imported before keep theirs (the upsert proposes it only because
 * PostgreSQL checks NOT NULL before ON CONFLICT; the update never changes a number). `takenAhead`:
 * numbers of pages ahead that have not committed yet.
 */
export async function assignCaseNumbers(
  db: Executor,
  orgId: string,
  all: ReadonlyArray<{ src_id: string; sourceNumber: unknown }>,
  takenAhead: ReadonlySet<number> = new Set(),
): Promise<Map<string, number>> {
  const assigned = new Map<string, number>()
  if (all.length === 0) return assigned
  // One index probe per key (each-key.ts).
  const existing = await sql<{ src_id: string; n: number }>`
    SELECT w.k AS src_id, c.n
    FROM ${eachKey(all.map((c) => c.src_id), 'text', 'c', (k) => sql`SELECT case_number AS n FROM cases WHERE org_id = ${orgId} AND src_id = ${k}`)}`.execute(db)
  for (const row of existing.rows) assigned.set(row.src_id, Number(row.n))
  const cases = all.filter((c) => !assigned.has(c.src_id))
  if (cases.length === 0) return assigned
  await sql`INSERT INTO org_counters (org_id, name, value) VALUES (${orgId}, ${COUNTER}, 0) ON CONFLICT (org_id, name) DO NOTHING`.execute(db)
  const locked = await sql<{ value: string | number }>`SELECT value FROM org_counters WHERE org_id = ${orgId} AND name = ${COUNTER} FOR UPDATE`.execute(db)
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
  await sql`UPDATE org_counters SET value = ${counter} WHERE org_id = ${orgId} AND name = ${COUNTER}`.execute(db)
  return assigned
}
