/**
 * One CSV import in the background: reads the stored file from the first row not yet done, and
 * imports it a page of rows at a time. Each page is one transaction: its records (through the
 * records' bulk write path, with their events), its issues and its counts commit together, so a
 * job resumed after a crash skips exactly the rows already done. Ends `completed`,
 * `completed_with_errors` (some rows are issues) or `failed` (the file stopped being readable, or
 * the job could not go on; the rows written before stay).
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { recordBulk, recordChanges, recordCustomFields } from '../records/index.ts'
import type { ChangeJournal, ReferenceMatch, RowToWrite, SourceAliases, Writer } from '../records/index.ts'
import type { CustomFieldDefinition, FieldDef, RecordKind } from '../records/contracts.ts'
import type { AuthContext, Scope } from '../shared/auth-context.ts'
import { withoutNeutralisingQuote } from '../shared/csv-cell.ts'
import { unstorableTextProblem } from '../shared/storable-text.ts'
import { cellValue } from './cell-values.ts'
import { csvRows, type CsvRow } from './csv-reading.ts'
import { customFieldOfTarget, importableFields } from './header-mapping.ts'
import { kindOfImport, type DedupeKey } from './import-request.ts'
import { addProgress, finishImport, insertIssues, markRunning, readChunk, type ImportIssue, type ImportRow } from './import.repository.ts'
import { AHEAD_PATIENCE_MS, OrderedPages, PageAheadTooSlow, patientWait } from './ordered-pages.ts'

/** Rows per page (one transaction): the batch endpoint's largest batch. */
export const IMPORT_PAGE_ROWS = 1000
/** Pages between two refreshes of the embedded database's statistics (ImportJob.refreshStatistics). */
const STATISTICS_PAGES = 20
/** Claims of one import that ran out before it finished: after this many its rows are not retried. */
const MAX_ATTEMPTS = 3

export class ClaimLost extends Error {
  constructor() {
    super('Another process took over this import.')
  }
}

export interface ImportJob {
  db: Kysely<DB>
  /** Where the import's record changes go (src/events, wired in app.ts). */
  journal: ChangeJournal
  /** Source aliases (the migration's links, wired in app.ts): a src_id a migration deduplicated leads to its record. */
  sourceAliases: SourceAliases
  owner: string
  row: ImportRow
  now(): Date
  /** Pages written at the same time (1 on the embedded database, whose one connection runs one transaction). */
  pagesInFlight: number
  /**
   * Refreshes the planner's statistics (the embedded database, which has no autovacuum): before the
   * first page, every STATISTICS_PAGES pages and at the end, so the lookups and the bulk update of a
   * growing table keep their index plans. The last one also vacuums, so that search does not read
   * the import's entries from the GINs' pending lists (src/http/plugins/embedded-statistics.ts).
   */
  refreshStatistics?(options?: { vacuum?: boolean }): Promise<void>
  /** Throws ClaimLost when the job must stop (claim lost, process stopping); awaited before each page. */
  gate(): void | Promise<void>
  /** How long a page waits for the page ahead with its transaction open (ordered-pages.ts); AHEAD_PATIENCE_MS by default. */
  aheadPatienceMs?: number
}

interface Column {
  index: number
  name: string
  field: FieldDef
}

/** A row read and converted: its body, or the issues that stop it. */
interface Prepared {
  row: CsvRow
  body: Record<string, unknown>
  /** Reference cells still to resolve: field -> text. */
  refs: Map<string, string>
  issues: ImportIssue[]
}

export async function runImportJob(job: ImportJob): Promise<void> {
  const { db, row: imp } = job
  try {
    if (imp.attempts >= MAX_ATTEMPTS) {
      await finishImport(db, imp.org_id, imp.id, job.owner, 'failed', `The import stopped ${imp.attempts} times without finishing (the processes running it ended); ${imp.processed} rows were imported.`, job.now())
      return
    }
    if (!(await markRunning(db, imp.org_id, imp.id, job.owner, job.now()))) return
    const kind = kindOfImport(imp.kind)
    const columns = mappedColumns(kind, imp, await recordCustomFields.listCustomFieldDefinitions(db, imp.org_id, kind.name))
    const actor: AuthContext = {
      orgId: imp.org_id,
      userId: imp.created_by,
      role: imp.actor_role,
      scopes: new Set(imp.actor_scopes as Scope[]),
      via: imp.actor_via,
      ...(imp.actor_client_id ? { clientId: imp.actor_client_id } : {}),
    }
    // One operation: every change of the run carries the import's id, and the person (and client) who started it.
    const writer: Writer = { auth: actor, actor: { userId: imp.created_by, clientId: imp.actor_client_id, channel: 'import' }, operationId: imp.id, journal: job.journal }
    const ctx: PageContext = { job, kind, columns, actor, writer, header: imp.columns.length, dedupeBy: imp.dedupe_by as DedupeKey | null, failedSoFar: imp.failed, issuesSoFar: imp.issue_count, references: new Map() }
    // Deduplication decides by what the pages ahead wrote: those pages go one at a time.
    const pages = new OrderedPages(ctx.dedupeBy ? 1 : job.pagesInFlight)
    let page: CsvRow[] = []
    let pagesDone = 0
    let lastRead = 1
    await job.refreshStatistics?.()
    try {
      for await (const r of csvRows(() => filePieces(db, imp.org_id, imp.id), imp.processed)) {
        lastRead = r.number
        page.push(r)
        if (page.length === IMPORT_PAGE_ROWS) {
          const rows = page
          await pages.add((ahead) => importPage(ctx, rows, ahead))
          page = []
          if (++pagesDone % STATISTICS_PAGES === 0) await job.refreshStatistics?.()
        }
      }
      if (page.length > 0) {
        const rows = page
        await pages.add((ahead) => importPage(ctx, rows, ahead))
      }
      await pages.drain()
    } catch (err) {
      await pages.settle()
      if (err instanceof ClaimLost || !isCsvError(err)) throw err
      // The upload checked the whole file, so this is a file changed since: stop with what is done.
      await finishImport(db, imp.org_id, imp.id, job.owner, 'failed', `The file could not be read past row ${lastRead}: ${(err as Error).message}`, job.now())
      return
    }
    await job.refreshStatistics?.({ vacuum: true })
    await finishImport(db, imp.org_id, imp.id, job.owner, ctx.failedSoFar > 0 || ctx.issuesSoFar > 0 ? 'completed_with_errors' : 'completed', null, job.now())
  } catch (err) {
    if (err instanceof ClaimLost) return
    // Not a row's problem (those are issues) but the job's: the database refused a page as a whole.
    const reason = `The import stopped: ${(err as Error).message ?? String(err)}. Rows imported before it are kept; importing the file again with dedupe_by updates them instead of duplicating them.`
    await finishImport(db, imp.org_id, imp.id, job.owner, 'failed', reason, job.now()).catch(() => {})
    throw err
  }
}

function isCsvError(err: unknown): boolean {
  return typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('CSV_')
}

async function* filePieces(db: Kysely<DB>, orgId: string, importId: string): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const piece = await readChunk(db, orgId, importId, seq)
    if (!piece) return
    yield piece
  }
}

function mappedColumns(kind: RecordKind, imp: ImportRow, custom: readonly CustomFieldDefinition[]): Column[] {
  const fields = new Map(importableFields(kind, custom).map((f) => [f.name, f]))
  const out: Column[] = []
  for (const [name, field] of Object.entries(imp.mapping)) {
    if (field === null) continue
    // A custom field deleted since the upload: its cells go as text, and the write refuses each row
    // that has one (an undefined custom field), so nothing is dropped without an issue saying so.
    out.push({ index: imp.columns.indexOf(name), name, field: fields.get(field) ?? { name: field, type: 'string', label: field } })
  }
  return out
}

interface PageContext {
  job: ImportJob
  kind: RecordKind
  columns: Column[]
  actor: AuthContext
  /** The run's writer: the `import` channel, the import's id as the operation. */
  writer: Writer
  header: number
  dedupeBy: DedupeKey | null
  /** Failed rows and issues so far, this run's pages included. */
  failedSoFar: number
  issuesSoFar: number
  references: Map<string, Map<string, ReferenceMatch>>
}

/** Cells -> field values; references and problems kept for the next steps. */
function prepare(ctx: PageContext, row: CsvRow): Prepared {
  const p: Prepared = { row, body: {}, refs: new Map(), issues: [] }
  if (row.cells.length > ctx.header) {
    p.issues.push({ row_number: row.number, column_name: null, field: null, message: `has ${row.cells.length} cells, but the header names ${ctx.header} columns` })
    return p
  }
  for (const c of ctx.columns) {
    // The `'` an export put before a formula-like cell is not part of the value (src/shared/csv-cell.ts).
    const cell = withoutNeutralisingQuote(row.cells[c.index] ?? '')
    const unstorable = unstorableTextProblem(cell)
    if (unstorable) {
      p.issues.push({ row_number: row.number, column_name: c.name, field: c.field.name, message: unstorable })
      continue
    }
    if (c.field.type === 'ref' || c.field.type === 'user') {
      if (cell.trim() !== '') p.refs.set(c.field.name, cell)
      continue
    }
    const v = cellValue(c.field, cell)
    if ('problem' in v) p.issues.push({ row_number: row.number, column_name: c.name, field: c.field.name, message: v.problem })
    else if ('value' in v) {
      const custom = customFieldOfTarget(c.field.name)
      if (custom === null) p.body[c.field.name] = v.value
      // Custom numbers are JSON numbers; the cell rules read them as decimals (text).
      else ((p.body.custom_fields ??= {}) as Record<string, unknown>)[custom] = c.field.type === 'decimal' ? Number(v.value) : v.value
    }
  }
  return p
}

/** Attempts of a page that met another writer's new record on a src_id (the second finds it). */
const PAGE_ATTEMPTS = 3

/** A page deduplicated by src_id found a src_id taken that its match had not seen: another writer committed it since. */
class SrcIdTakenSinceMatch extends Error {
  constructor() {
    super(`another writer kept creating records with this page's src_ids while the page was written (${PAGE_ATTEMPTS} attempts)`)
  }
}

function isSrcIdRace(err: unknown): boolean {
  if (err instanceof SrcIdTakenSinceMatch) return true
  const e = err as { code?: string; constraint?: string }
  return e?.code === '23505' && !!e.constraint?.endsWith('src_id_key')
}

async function importPage(ctx: PageContext, rows: CsvRow[], ahead: Promise<void>): Promise<void> {
  await ctx.job.gate()
  const patience = ctx.job.aheadPatienceMs ?? AHEAD_PATIENCE_MS
  let srcIdRaces = 0
  for (;;) {
    try {
      return await importPageOnce(ctx, rows, patientWait(ahead, patience))
    } catch (err) {
      // Rolled back while waiting for the page ahead (ordered-pages.ts says why): run again once it
      // has ended. It cannot happen twice: by then there is nothing ahead to wait for.
      if (err instanceof PageAheadTooSlow) {
        await ahead
        continue
      }
      // Another import (or a batch) created a record with one of this page's src_ids between the
      // page's lookup and its write: run the page again, which now sees that record.
      if (++srcIdRaces < PAGE_ATTEMPTS && isSrcIdRace(err)) continue
      throw err
    }
  }
}

async function importPageOnce(ctx: PageContext, rows: CsvRow[], ahead: PromiseLike<void>): Promise<void> {
  const { job, kind } = ctx
  const imp = job.row
  const prepared = rows.map((r) => prepare(ctx, r))
  const columnOf = new Map(ctx.columns.map((c) => [c.field.name, c.name]))
  const counts = { created: 0, updated: 0 }
  let pageDone: { failed: number; issues: number } | undefined
  await recordChanges.inWriteTransaction(job.db, ctx.writer, async (tx) => {
    const { trx } = tx
    await resolvePageReferences(trx, ctx, prepared, columnOf)
    const ok = prepared.filter((p) => p.issues.length === 0)
    const byRow = new Map(prepared.map((p) => [p.row.number, p]))
    // Another import deduplicating the same kind waits until this page commits, then finds its records.
    if (ctx.dedupeBy) await recordBulk.takeDeduplicationTurn(trx, imp.org_id, kind)
    for (const round of dedupeRounds(ctx, ok)) {
      const matched = await matchExisting(trx, ctx, round)
      const toWrite: RowToWrite[] = round.map((p) => {
        const id = matched.get(p)
        return id ? { row: p.row.number, id: id.id, body: id.dropSrcId ? withoutSrcId(p.body) : p.body } : { row: p.row.number, body: p.body }
      })
      // The page's events are numbered in this transaction, under the journal counter lock, which
      // the page ahead holds until it commits: the lock is taken only once it has (import-job waits
      // PostgreSQL cannot see would otherwise deadlock two pages).
      const written = await recordBulk.writeRowsReportingProblems(tx, kind, toWrite, job.now(), { numberEventsAfter: ahead })
      // Matched by src_id at the start of the round, then refused for a src_id taken: another import
      // or batch committed it in between (each statement reads what is committed when it starts).
      // Rolled back and run again, the page finds that record and updates it, as it should.
      if (ctx.dedupeBy === 'src_id' && written.srcIdTaken.length > 0) throw new SrcIdTakenSinceMatch()
      counts.created += written.created
      counts.updated += written.updated
      for (const problem of written.problems) {
        byRow.get(problem.row)!.issues.push({ row_number: problem.row, column_name: problem.field ? (columnOf.get(problem.field) ?? null) : null, field: problem.field, message: problem.message })
      }
    }
    const issues = prepared.flatMap((p) => p.issues.map((issue, ordinal) => ({ ...issue, ordinal })))
    const failed = prepared.filter((p) => p.issues.length > 0).length
    await insertIssues(trx, imp.org_id, imp.id, issues)
    const delta = { processed: rows.length, created: counts.created, updated: counts.updated, failed, issues: issues.length }
    // In file order: the page ahead commits first (its failure rolls this page back too).
    await ahead
    if (!(await addProgress(trx, imp.org_id, imp.id, job.owner, delta, job.now()))) throw new ClaimLost()
    pageDone = delta
  })
  ctx.failedSoFar += pageDone!.failed
  ctx.issuesSoFar += pageDone!.issues
}

function withoutSrcId(body: Record<string, unknown>): Record<string, unknown> {
  const { src_id: _srcId, ...rest } = body
  return rest
}

/** Reference cells -> ids: by id, src_id, name or email (records/bulk/reference-lookup.ts). */
async function resolvePageReferences(trx: Kysely<DB>, ctx: PageContext, prepared: Prepared[], columnOf: Map<string, string>): Promise<void> {
  const fields = ctx.columns.filter((c) => c.field.type === 'ref' || c.field.type === 'user')
  for (const c of fields) {
    const values = prepared.filter((p) => p.issues.length === 0 && p.refs.has(c.field.name)).map((p) => p.refs.get(c.field.name)!)
    if (values.length === 0) continue
    const found = await cachedReferences(trx, ctx, c.field, values)
    const target = c.field.type === 'user' ? 'member' : c.field.ref!.replace('_', ' ')
    for (const p of prepared) {
      const text = p.refs.get(c.field.name)
      if (text === undefined || p.issues.length > 0) continue
      const match = found.get(text)
      const issue = (message: string) => p.issues.push({ row_number: p.row.number, column_name: columnOf.get(c.field.name) ?? null, field: c.field.name, message })
      if (!match) issue(c.field.type === 'user' ? `names no member of this organization (give a member's email or id)` : `names no ${target} of this organization (by id, src_id or name)`)
      else if ('ambiguous' in match) issue(`names several ${target}s by ${match.ambiguous}: give the id or src_id of the one meant`)
      else p.body[c.field.name] = match.id
    }
  }
}

/** References resolved per import (field -> text -> match) at most: a file names the same few accounts again and again. */
const REFERENCE_CACHE = 50_000

/**
 * Resolves only what earlier pages did not. A record found on an earlier page and deleted since is
 * still caught: the write checks every reference again, in its own transaction, and reports the row.
 * Ambiguous and unknown names are not kept, so a record created meanwhile is found.
 */
async function cachedReferences(trx: Kysely<DB>, ctx: PageContext, field: FieldDef, values: string[]): Promise<Map<string, ReferenceMatch>> {
  let cache = ctx.references.get(field.name)
  if (!cache) ctx.references.set(field.name, (cache = new Map()))
  const missing = [...new Set(values)].filter((v) => !cache.has(v))
  const found = missing.length > 0 ? await recordBulk.resolveReferences(trx, ctx.job.sourceAliases, ctx.actor.orgId, field, missing) : new Map<string, ReferenceMatch>()
  for (const [text, match] of found) if (match && 'id' in match && cache.size < REFERENCE_CACHE) cache.set(text, match)
  return new Map(values.map((v) => [v, cache.get(v) ?? found.get(v) ?? null]))
}

/** The dedupe key of a prepared row, normalised as its matching compares it; null: no key. */
function dedupeKey(ctx: PageContext, p: Prepared): string | null {
  if (!ctx.dedupeBy) return null
  const value = p.body[ctx.dedupeBy]
  if (typeof value !== 'string' || value.trim() === '') return null
  return ctx.dedupeBy === 'src_id' ? value : recordBulk.MATCH_KEYS[ctx.dedupeBy].normalize(value)
}

/**
 * The page's rows in rounds in which no dedupe key repeats: a key that appears again in the same
 * page is written in a later round, which finds the record the earlier row created and updates it,
 * as the same rows in two files would.
 */
function dedupeRounds(ctx: PageContext, rows: Prepared[]): Prepared[][] {
  if (!ctx.dedupeBy) return rows.length > 0 ? [rows] : []
  const rounds: Prepared[][] = []
  const seen = new Map<string, number>()
  for (const p of rows) {
    const key = dedupeKey(ctx, p)
    const round = key === null ? 0 : (seen.get(key) ?? -1) + 1
    if (key !== null) seen.set(key, round)
    ;(rounds[round] ??= []).push(p)
  }
  return rounds.filter((r) => r !== undefined)
}

/** Rows whose dedupe key names an existing record -> that record (and whether to keep its src_id). */
async function matchExisting(trx: Kysely<DB>, ctx: PageContext, rows: Prepared[]): Promise<Map<Prepared, { id: string; dropSrcId: boolean }>> {
  const out = new Map<Prepared, { id: string; dropSrcId: boolean }>()
  if (!ctx.dedupeBy) return out
  const keyed = rows.map((p) => [p, dedupeKey(ctx, p)] as const).filter((e): e is readonly [Prepared, string] => e[1] !== null)
  if (keyed.length === 0) return out
  const keys = keyed.map(([, k]) => k)
  if (ctx.dedupeBy === 'src_id') {
    const known = await recordBulk.knownSourceIds(trx, ctx.job.sourceAliases, ctx.actor.orgId, ctx.kind, keys)
    for (const [p, k] of keyed) {
      const hit = known.get(k)
      // Matched through an alias (a record deduplicated by a migration): its own src_id stays.
      if (hit) out.set(p, { id: hit.id, dropSrcId: hit.via === 'link' })
    }
  } else {
    const found = await recordBulk.recordsByMatchKey(trx, ctx.actor.orgId, ctx.kind, recordBulk.MATCH_KEYS[ctx.dedupeBy], [...new Set(keys)])
    for (const [p, k] of keyed) {
      const id = found.get(k)
      if (id) out.set(p, { id, dropSrcId: false })
    }
  }
  return out
}
