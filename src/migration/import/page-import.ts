/**
 * Imports one page of source records of one object, in one transaction with everything it
 * records: the upserted records, deduplication links, pending references, webhook events (when
 * Configure asked for them), the page's issues, the object's counts and the read checkpoint. A crash
 * before the commit leaves no trace of the page; after it, reading continues after the page. So a
 * resumed run ends in the same state as an uninterrupted one.
 *
 * The page goes through named steps (page-steps/): map -> resolve -> deduplicate -> number ->
 * write. This file holds their order and how a page waits for the pages ahead of it.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { recordChanges } from '../../records/index.ts'
import type { ReadCheckpoint } from '../migration.types.ts'
import { addProgress, type ProgressDelta } from '../progress.repository.ts'
import type { PageContext } from './page-context.ts'
import { PageInFlight, type Claims } from './page-in-flight.ts'
import { deduplicate } from './page-steps/deduplicate.ts'
import { mapRecords } from './page-steps/map.ts'
import { numberCases } from './page-steps/number.ts'
import { newReport } from './page-steps/page-work.ts'
import { resolveReferences } from './page-steps/resolve.ts'
import { writeRecords } from './page-steps/write.ts'

export type { PageContext, ReferenceTarget } from './page-context.ts'

/** A page waited longer than its lock timeout for rows another transaction held (PostgreSQL 55P03). */
export class PageLockTimeout extends Error {
  constructor(object: string, ms: number) {
    super(`A page of ${object} waited more than ${Math.round(ms / 1000)} s for records another write held (usually a source that sent one record in two pages), so nothing of that page was written.`)
  }
}

const LOCK_NOT_AVAILABLE = '55P03'

/**
 * `page`: this page as the pages after it see it, chained to the page ahead (page-in-flight.ts). A
 * page's transaction does its work, then waits for the page ahead to commit before committing, so
 * pages written concurrently still commit in order and a stored checkpoint never runs ahead of an
 * uncommitted page. It settles `page` (decided, committed or failed) whatever happens.
 */
export async function importPage(
  ctx: PageContext,
  records: readonly Record<string, unknown>[],
  checkpoint: ReadCheckpoint,
  recordsPerSecond: number | null,
  now: Date,
  page: PageInFlight = new PageInFlight(),
): Promise<ProgressDelta> {
  try {
    const delta = await writePage(ctx, records, checkpoint, recordsPerSecond, now, page)
    page.commit()
    return delta
  } catch (error) {
    page.fail(error)
    throw error
  }
}

async function writePage(
  ctx: PageContext,
  records: readonly Record<string, unknown>[],
  checkpoint: ReadCheckpoint,
  recordsPerSecond: number | null,
  now: Date,
  page: PageInFlight,
): Promise<ProgressDelta> {
  const afterPrevious = page.ahead?.committed ?? Promise.resolve()
  const report = newReport(records.length)
  const mapped = await mapRecords(ctx, records, report)
  await recordChanges.inWriteTransaction(ctx.db, ctx.writer, async (tx) => {
    await pageSettings(tx.trx, ctx)
    const resolved = await resolveReferences(tx.trx, ctx, mapped, report)
    const ahead = await pagesAheadDecided(ctx, page, afterPrevious)
    const toWrite = await deduplicate(tx.trx, ctx, resolved, ahead, page, report)
    await numberCases(tx.trx, ctx, toWrite.rows, ahead, page)
    page.decide()
    await writeRecords(tx, ctx, toWrite, report, now)
    await afterPrevious
    await addProgress(tx.trx, ctx.orgId, ctx.migrationId, ctx.object, report.delta, checkpoint, recordsPerSecond)
  }).catch((err: unknown) => {
    throw (err as { code?: unknown })?.code === LOCK_NOT_AVAILABLE ? new PageLockTimeout(ctx.object, ctx.lockTimeoutMs) : err
  })
  return report.delta
}

/**
 * The page, its issues, counts and checkpoint commit or vanish together, so a database crash that
 * loses the last commits loses their checkpoints too and the run reads those pages again: the
 * commit need not wait for the disk (PostgreSQL's asynchronous commit). A lock wait ends in an
 * error instead of a hang (PAGE_LOCK_TIMEOUT_MS).
 */
async function pageSettings(trx: Kysely<DB>, ctx: PageContext): Promise<void> {
  await sql`SELECT set_config('synchronous_commit', 'off', true), set_config('lock_timeout', ${String(ctx.lockTimeoutMs)}, true)`.execute(trx)
}

/**
 * Deduplication and case numbers concern source records that are new here, and depend on the pages
 * before this one: wait for the page ahead to have decided its own, then take the claims of the
 * pages ahead not yet committed (the database holds the rest); the writes of the pages still
 * overlap. Except when a duplicate is to be updated: an update cannot see a record the page ahead
 * has not committed, so such pages wait for that commit.
 */
async function pagesAheadDecided(ctx: PageContext, page: PageInFlight, afterPrevious: Promise<void>): Promise<Claims> {
  if (ctx.dedup?.action === 'update') await afterPrevious
  else if (ctx.dedup || ctx.kind.name === 'case') await page.ahead?.decided
  return page.claimsAhead()
}
