/**
 * Step 4 of a page, number: imported cases keep their source case number when it is free here,
 * and get the next free one otherwise, skipping the numbers pages ahead assigned. Other kinds have
 * nothing to number.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../../db/database.ts'
import { recordBulk } from '../../../records/index.ts'
import type { PageContext } from '../page-context.ts'
import type { Claims, PageInFlight } from '../page-in-flight.ts'
import type { Prepared } from './page-work.ts'

/** `ahead`: claims of the pages ahead not yet committed; this page's numbers go to `page.numbers`. */
export async function numberCases(trx: Kysely<DB>, ctx: PageContext, rows: Prepared[], ahead: Claims, page: PageInFlight): Promise<void> {
  if (ctx.kind.name !== 'case') return
  const cases = rows.map((p) => ({ src_id: p.record.src_id, sourceNumber: p.raw.CaseNumber }))
  // Numbered in a transaction of its own, so the sequence row is not held until this page commits
  // (except on the embedded database's one connection).
  const numbers = ctx.single
    ? await recordBulk.numberImportedCases(trx, ctx.orgId, cases, ahead.numbers)
    : await ctx.db.transaction().execute((own) => recordBulk.numberImportedCases(own, ctx.orgId, cases, ahead.numbers))
  for (const p of rows) p.row.fields.case_number = numbers.get(p.record.src_id) ?? null
  for (const n of numbers.values()) page.numbers.add(n)
}
