/**
 * Imports one page of source records of one object, in one transaction with everything it
 * records: the upserted records, deduplication links, pending references, webhook events (when
 * Configure asked for them), the page's issues, the object's counts and the read checkpoint. A crash
 * before the commit leaves no trace of the page; after it, reading continues after the page. So a
 * resumed run ends in the same state as an uninterrupted one.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { recordBulk, recordChanges } from '../../records/index.ts'
import type { BulkColumn, ImportedRow, KnownSourceId, Writer } from '../../records/index.ts'
import type { CustomFieldDefinition, RecordKind } from '../../records/contracts.ts'
import { uuidv7 } from '../../shared/ids.ts'
import { transformRecord, type CompiledMapping } from '../mapping/transform-record.ts'
import { applyImportedFields } from './custom-field-definitions.ts'
import type { MissingParentPolicy, ReadCheckpoint, TransformedRecord } from '../migration.types.ts'
import { addProgress, insertIssues, type NewIssue, type ProgressDelta } from '../progress.repository.ts'
import { findDuplicates, type DedupRule } from './dedup.ts'
import { importedRecordId } from './record-ids.ts'
import { PageInFlight } from './page-in-flight.ts'
import { insertPendingRefs, type PendingRef } from './relink.ts'
import { addSourceLinks, sourceLinks } from './source-links.ts'

type Db = Kysely<DB>

/** Where a reference to a source object leads: the kind it becomes, and when it is imported. */
export interface ReferenceTarget {
  kind: RecordKind
  /** Imported after the holder (or the holder's own object): set by the re-link pass. */
  deferred: boolean
  /**
   * Part of this run (or its phases). A reference to an object the migration does not import is a
   * choice made in Configure, not a data problem: when no record of it exists here already, the
   * link stays empty, the source id is kept in custom_fields, and one summary warning per object
   * says so (object-step.ts), instead of a warning, skip or failure per record.
   */
  imported: boolean
}

export interface PageContext {
  db: Db
  orgId: string
  migrationId: string
  object: string
  kind: RecordKind
  mapping: CompiledMapping
  columns: readonly BulkColumn[]
  /** Referenced source object -> its target. Objects not listed are out of scope (no link). */
  referenceTargets: ReadonlyMap<string, ReferenceTarget>
  /** Reference fields the record cannot exist without (a comment's case). */
  requiredReferences: ReadonlySet<string>
  missingParent: MissingParentPolicy
  /** Source user id -> member user id (null: no member with that email) and the user's name. */
  owners: ReadonlyMap<string, { userId: string | null; name: string }>
  ownersPolicy: 'match_by_email' | 'leave_empty'
  dedup: DedupRule | null
  /** Earlier runs linked records of this kind (migration_links has rows for it): look them up. */
  hasLinks: boolean
  /** Journal record events, and send them to webhooks (Configure's option). */
  emitWebhooks: boolean
  /** The run's writer: the `migration` channel, the migration's id as the operation. */
  writer: Writer
  /** PAGE_LOCK_TIMEOUT_MS (shorter in tests). */
  lockTimeoutMs: number
  /** One database connection (the embedded database): case numbers are given inside the page's transaction. */
  single: boolean
  /** Configure's create_custom_fields: source field -> the custom field its values go to (custom-field-definitions.ts). */
  customFieldTargets: ReadonlyMap<string, CustomFieldDefinition>
}

/** A page waited longer than its lock timeout for rows another transaction held (PostgreSQL 55P03). */
export class PageLockTimeout extends Error {
  constructor(object: string, ms: number) {
    super(`A page of ${object} waited more than ${Math.round(ms / 1000)} s for records another write held (usually a source that sent one record in two pages), so nothing of that page was written.`)
  }
}

interface Prepared {
  raw: Record<string, unknown>
  record: TransformedRecord
  row: ImportedRow
  deferred: PendingRef[]
}

/** Records mapped between two turns of the event loop. */
const MAP_SLICE = 250

const ZERO: ProgressDelta = { processed: 0, created: 0, updated: 0, linked: 0, skipped: 0, failed: 0, warnings: 0 }

function issue(ctx: PageContext, kind: NewIssue['kind'], code: string, srcId: string | null, reason: string, raw: Record<string, unknown> | null, field: string | null = null): NewIssue {
  return { id: uuidv7(), object: ctx.object, src_id: srcId, kind, code, field, reason, source_data: raw }
}

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
  const delta: ProgressDelta = { ...ZERO, processed: records.length }
  const issues: NewIssue[] = []
  const kept: Prepared[] = []

  // 1. Source values -> target values (the mapping); failures are recorded with the source data.
  //    In slices of MAP_SLICE records: mapping a whole page at once held up the answers of the
  //    page ahead's queries for tens of milliseconds, and the database waited meanwhile.
  let mapped = 0
  for (const raw of records) {
    if (++mapped % MAP_SLICE === 0) await new Promise((resolve) => setImmediate(resolve))
    const out = transformRecord(ctx.mapping, raw)
    const srcId = typeof raw.Id === 'string' ? raw.Id : null
    if (!out.ok) {
      issues.push(issue(ctx, 'failed', out.code, srcId, out.reason, raw))
      delta.failed++
      continue
    }
    const r = out.record
    if (ctx.customFieldTargets.size > 0) r.warnings.push(...applyImportedFields(r.custom_fields, ctx.customFieldTargets))
    for (const w of r.warnings) issues.push(issue(ctx, 'warning', w.code, r.src_id, w.reason, null, w.field ?? null))
    kept.push({ raw, record: r, row: { id: importedRecordId(r.created_at, r.src_id), src_id: r.src_id, created_at: r.created_at, fields: r.fields, custom_fields: r.custom_fields }, deferred: [] })
  }

  await recordChanges.inWriteTransaction(ctx.db, ctx.writer, async (tx) => {
    const { trx } = tx
    // The page, its issues, counts and checkpoint commit or vanish together, so a database crash that
    // loses the last commits loses their checkpoints too and the run reads those pages again: the
    // commit need not wait for the disk (PostgreSQL's asynchronous commit). A lock wait ends in an
    // error instead of a hang (PAGE_LOCK_TIMEOUT_MS).
    await sql`SELECT set_config('synchronous_commit', 'off', true), set_config('lock_timeout', ${String(ctx.lockTimeoutMs)}, true)`.execute(trx)
    let rows = await resolveReferences(trx, ctx, kept, issues, delta)
    mapOwners(ctx, rows)

    // 2. Deduplication and case numbers concern source records that are new here. A source record
    //    linked to an existing record by an earlier run follows that link again. Both depend on the
    //    pages before this one, so they wait for the page ahead to have decided its own, and then
    //    look in the database and at the claims of the pages ahead not yet committed
    //    (page-in-flight.ts); the writes of the pages still overlap. Except when a duplicate is to
    //    be updated: an update cannot see a record the page ahead has not committed, so such pages
    //    wait for that commit.
    const rule = ctx.dedup
    if (rule?.action === 'update') await afterPrevious
    else if (rule || ctx.kind.name === 'case') await page.ahead?.decided
    const ahead = page.claimsAhead()
    const known = rule || ctx.hasLinks ? await recordBulk.knownSourceIds(trx, sourceLinks, ctx.orgId, ctx.kind, rows.map((p) => p.record.src_id)) : new Map<string, KnownSourceId>()
    const links: Array<{ src_id: string; record_id: string }> = []
    const updates: Prepared[] = []
    const dropped = new Set<Prepared>()
    const onMatch = (p: Prepared, existingId: string, what: string, inPage: boolean) => {
      const action = rule?.action ?? 'link'
      if (action === 'update' && !inPage) {
        updates.push({ ...p, row: { ...p.row, id: existingId } })
        dropped.add(p)
        issues.push(issue(ctx, 'warning', 'duplicate_updated', p.record.src_id, `Updated the existing ${what} instead of creating a duplicate.`, null, rule?.field ?? null))
      } else {
        links.push({ src_id: p.record.src_id, record_id: existingId })
        dropped.add(p)
        issues.push(issue(ctx, 'warning', 'duplicate_linked', p.record.src_id, `Not created: linked to the ${inPage ? 'source record imported just before, ' : ''}${what}; references to it lead there.`, null, rule?.field ?? null))
      }
    }
    for (const p of rows) {
      const k = known.get(p.record.src_id)
      if (k?.via === 'link' && rule?.action !== 'create') onMatch(p, k.id, `${ctx.kind.label.toLowerCase()} ${k.id} it was linked to by an earlier run`, false)
    }
    if (rule) {
      const fresh = rows.filter((p) => !known.has(p.record.src_id))
      const decisions = await findDuplicates(trx, ctx.orgId, ctx.kind, rule, fresh.map((p) => ({ id: p.row.id, value: p.row.fields[rule.field] })), ahead.keys)
      fresh.forEach((p, i) => {
        const d = decisions[i]
        if (!d.match) {
          if (d.key !== null) page.keys.set(d.key, p.row.id)
          return
        }
        const what = `${ctx.kind.label.toLowerCase()} ${d.existingId} with the same ${rule.describe} (${d.key})`
        if (rule.action === 'create') issues.push(issue(ctx, 'warning', 'duplicate_created', p.record.src_id, `Created although it matches ${what}, as the deduplication rule says.`, null, rule.field))
        else onMatch(p, d.existingId, what, d.inPage)
      })
    }
    rows = rows.filter((p) => !dropped.has(p))
    delta.linked += links.length
    if (ctx.kind.name === 'case') {
      const cases = rows.map((p) => ({ src_id: p.record.src_id, sourceNumber: p.raw.CaseNumber }))
      // Numbered in a transaction of its own, so the sequence row is not held until this page commits.
      const numbers = ctx.single
        ? await recordBulk.numberImportedCases(trx, ctx.orgId, cases, ahead.numbers)
        : await ctx.db.transaction().execute((own) => recordBulk.numberImportedCases(own, ctx.orgId, cases, ahead.numbers))
      for (const p of rows) p.row.fields.case_number = numbers.get(p.record.src_id) ?? null
      for (const n of numbers.values()) page.numbers.add(n)
    }
    page.decide()

    // 3. Write, then what depends on the written ids.
    // Ids come back only when something needs them: links set after the page, or webhook events.
    const needIds = rows.some((p) => p.deferred.length > 0)
    // Through records' import write path, which emits the records' events when Configure asked.
    const written = await recordBulk.upsertImported(tx, ctx.kind, ctx.columns, rows.map((p) => p.row), now, { returnIds: needIds, emitEvents: ctx.emitWebhooks })
    await recordBulk.updateMatched(tx, ctx.kind, ctx.columns, updates.map((p) => p.row), now, { emitEvents: ctx.emitWebhooks })
    await addSourceLinks(trx, ctx.orgId, ctx.migrationId, ctx.kind.name, links, now)
    const idBySrc = new Map(written.rows.map((w) => [w.src_id!, w.id]))
    for (const p of updates) idBySrc.set(p.record.src_id, p.row.id)
    const pending: PendingRef[] = []
    for (const p of [...rows, ...updates]) for (const ref of p.deferred) pending.push({ ...ref, record_id: idBySrc.get(p.record.src_id)! })
    await insertPendingRefs(trx, ctx.orgId, ctx.migrationId, pending)
    delta.created += written.created
    delta.updated += written.updated + updates.length

    delta.warnings += await insertIssues(trx, ctx.orgId, ctx.migrationId, issues.filter((i) => i.kind === 'warning'), now)
    await insertIssues(trx, ctx.orgId, ctx.migrationId, issues.filter((i) => i.kind !== 'warning'), now)
    await afterPrevious
    await addProgress(trx, ctx.orgId, ctx.migrationId, ctx.object, delta, checkpoint, recordsPerSecond)
  }).catch((err: unknown) => {
    throw (err as { code?: unknown })?.code === LOCK_NOT_AVAILABLE ? new PageLockTimeout(ctx.object, ctx.lockTimeoutMs) : err
  })
  return delta
}

const LOCK_NOT_AVAILABLE = '55P03'

/**
 * Sets every reference it can now (records imported before, through src_id or a link), defers
 * those to records imported later, and applies the missing-parent policy to the rest. Returns the
 * records that go on to be written.
 */
async function resolveReferences(trx: Db, ctx: PageContext, kept: Prepared[], issues: NewIssue[], delta: ProgressDelta): Promise<Prepared[]> {
  const wanted = new Map<RecordKind, string[]>()
  for (const p of kept) {
    for (const ref of p.record.references) {
      const target = ctx.referenceTargets.get(ref.object)
      if (target && !target.deferred) {
        const list = wanted.get(target.kind) ?? []
        list.push(ref.src_id)
        wanted.set(target.kind, list)
      }
    }
  }
  const resolved = new Map<RecordKind, Map<string, KnownSourceId>>()
  for (const [kind, ids] of wanted) resolved.set(kind, await recordBulk.knownSourceIds(trx, sourceLinks, ctx.orgId, kind, ids))

  const out: Prepared[] = []
  for (const p of kept) {
    let drop: 'skipped' | 'failed' | null = null
    for (const ref of p.record.references) {
      const target = ctx.referenceTargets.get(ref.object)
      const label = target ? target.kind.label.toLowerCase() : ref.object
      if (target?.deferred) {
        p.deferred.push({ object: ctx.object, kind: ctx.kind.name, record_id: '', src_id: p.record.src_id, field: ref.field, target_kind: target.kind.name, target_src_id: ref.src_id })
        p.row.fields[ref.field] = null
        continue
      }
      const id = target ? resolved.get(target.kind)?.get(ref.src_id)?.id : undefined
      if (id) {
        p.row.fields[ref.field] = id
        continue
      }
      p.row.fields[ref.field] = null
      if (target && !target.imported) {
        p.row.custom_fields[ref.source] = ref.src_id
        continue
      }
      const why = target
        ? `its ${label} (${ref.field} -> ${ref.object} ${ref.src_id}) was not imported`
        : `${ref.object} ${ref.src_id} (${ref.field}) is not imported by this migration`
      const required = ctx.requiredReferences.has(ref.field)
      if (required || ctx.missingParent !== 'import_without_link') {
        drop = ctx.missingParent === 'fail_record' ? 'failed' : 'skipped'
        const rule = required ? 'it cannot exist without it' : `the missing-parent rule says ${ctx.missingParent === 'fail_record' ? 'fail' : 'skip'} the record`
        issues.push(issue(ctx, drop, 'missing_parent', p.record.src_id, `${drop === 'failed' ? 'Failed' : 'Skipped'}: ${why}, and ${rule}.`, p.raw, ref.field))
        break
      }
      issues.push(issue(ctx, 'warning', 'missing_parent', p.record.src_id, `Imported without the link: ${why}.`, null, ref.field))
    }
    if (drop) delta[drop]++
    else out.push(p)
  }
  return out
}

/** Owners by email (Configure's rule); a comment's author keeps the source user's name either way. */
function mapOwners(ctx: PageContext, rows: Prepared[]): void {
  for (const p of rows) {
    const owner = p.record.owner
    if (!owner) continue
    const user = ctx.owners.get(owner.src_id)
    p.row.fields[owner.field] = ctx.ownersPolicy === 'match_by_email' ? (user?.userId ?? null) : null
    if (ctx.kind.name === 'case_comment' && p.row.fields.author_name == null && user) p.row.fields.author_name = user.name
  }
}
