/**
 * One object of a run: reads its source records page by page from the stored checkpoint (REST
 * keyset queries, or Bulk API 2.0 for large objects) and imports each page (page-import.ts). Between
 * pages it checks that the run may go on (not cancelled, still claimed by this process), and it
 * measures its speed for the progress display.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { recordBulk } from '../../records/index.ts'
import type { Writer } from '../../records/index.ts'
import { kindsByName } from '../../records/contracts.ts'
import { compileMapping } from '../mapping/transform-record.ts'
import { effectiveMappings } from '../mapping/effective-mapping.ts'
import { PAGE_LOCK_TIMEOUT_MS, PAGE_SIZE, PAGES_IN_FLIGHT, STEP_BY_OBJECT } from '../migration.defaults.ts'
import type { MigrationConfig, ObjectAnalysis, ReadCheckpoint } from '../migration.types.ts'
import type { ObjectRow } from '../progress.repository.ts'
import { readPages } from '../source/record-reader.ts'
import type { SourceConnection } from '../source/source-connection.ts'
import { dedupRuleFor } from './dedup.ts'
import { defineImportedFields } from './custom-field-definitions.ts'
import { PageInFlight } from './page-in-flight.ts'
import { importPage, type PageContext, type ReferenceTarget } from './page-import.ts'
import { hasSourceLinks } from './source-links.ts'
import { summarizeUnimportedLinks } from './unimported-links.ts'

type Db = Kysely<DB>

export interface StepInput {
  db: Db
  orgId: string
  migrationId: string
  config: MigrationConfig
  analysis: ObjectAnalysis
  /** Every analyzed object, for key prefixes and what else the run imports. */
  objects: readonly ObjectAnalysis[]
  row: ObjectRow
  connection: SourceConnection
  owners: PageContext['owners']
  recordTypes: ReadonlyMap<string, string>
  writer: Writer
  now(): Date
  /** Throws when the run must stop (cancelled, claim lost) — called between pages. */
  checkpointGate(): Promise<void>
  /** One database connection (the embedded database): pages are written one at a time. */
  single: boolean
}

/** Whether the run imports this source object (selected, or following a selected one). */
function importsObject(config: MigrationConfig, object: string): boolean {
  const step = STEP_BY_OBJECT.get(object)
  return config.objects.includes(object) || (step?.follows !== undefined && config.objects.includes(step.follows))
}

/** Where each referenced source object leads, and whether this run imports it before or after `object`. */
function referenceTargetsOf(object: string, config: MigrationConfig): Map<string, ReferenceTarget> {
  const order = [...STEP_BY_OBJECT.values()]
  const position = (name: string) => order.findIndex((s) => s.object === name)
  const targets = new Map<string, ReferenceTarget>()
  for (const step of order) {
    // A reference leads to a kind whether or not its object is part of this run: records imported
    // by an earlier run (an earlier phase) resolve through their src_id all the same.
    const imported = importsObject(config, step.object)
    targets.set(step.object, { kind: kindsByName[step.target], deferred: imported && position(step.object) >= position(object), imported })
  }
  return targets
}

export function pageContextOf(input: Omit<StepInput, 'row' | 'connection' | 'checkpointGate'>, emit: boolean, hasLinks: boolean) {
  const { analysis, config } = input
  const kind = kindsByName[analysis.target!]
  const fields = effectiveMappings(analysis.fields, config.field_overrides[analysis.name] ?? {}, kind.name)
  const keyPrefixes = Object.fromEntries(input.objects.filter((o) => o.key_prefix).map((o) => [o.key_prefix!, o.name]))
  const mapping = compileMapping(analysis.name, fields, { recordTypes: input.recordTypes, keyPrefixes })
  // The transform's own columns (mapped, derived, set by its rules), plus what the importer resolves:
  // references, owners, and a comment's author name.
  const columnNames = new Set<string>(mapping.columns)
  for (const f of fields) {
    if (f.action === 'owner' && f.target) columnNames.add(f.target)
    if (f.action === 'reference') for (const t of Object.values(f.targets ?? {})) columnNames.add(t)
  }
  if (kind.name === 'case_comment') columnNames.add('author_name')
  // A case's number is given by records' numbering and written on insert only (columnsOf says so).
  if (kind.name === 'case') columnNames.add('case_number')
  const columns = recordBulk.columnsOf(kind, [...columnNames])
  const required = new Set(mapping.requiredRefs.map((r) => r.target))
  const ctx: PageContext = {
    db: input.db,
    orgId: input.orgId,
    migrationId: input.migrationId,
    object: analysis.name,
    kind,
    mapping,
    columns,
    referenceTargets: referenceTargetsOf(analysis.name, config),
    requiredReferences: required,
    missingParent: config.relationships.missing_parent,
    owners: input.owners,
    ownersPolicy: config.relationships.owners,
    dedup: dedupRuleFor(kind.name, config),
    hasLinks,
    emitWebhooks: emit,
    writer: input.writer,
    lockTimeoutMs: PAGE_LOCK_TIMEOUT_MS,
    single: input.single,
    customFieldTargets: new Map(),
  }
  const fieldTypes: Record<string, string> = { Id: 'id', CreatedDate: 'datetime' }
  for (const f of analysis.fields) fieldTypes[f.source] = f.source_type
  return { ctx, fieldTypes, sourceFields: mapping.sourceFields, fields }
}

/** Reads and imports the object from its checkpoint to the end. */
export async function runObjectStep(input: StepInput): Promise<void> {
  const target = kindsByName[input.analysis.target!]
  const hasLinks = await hasSourceLinks(input.db, input.orgId, target.name)
  const { ctx, fieldTypes, sourceFields, fields } = pageContextOf(input, input.config.emit_webhooks, hasLinks)
  if (input.config.create_custom_fields) ctx.customFieldTargets = await defineImportedFields(input.db, input.orgId, target, fields)
  let checkpoint: ReadCheckpoint = input.row.checkpoint ?? { after_id: null }
  const rate = new RateMeter()
  const pages = readPages(input.connection, {
    object: input.analysis.name,
    fields: sourceFields,
    fieldTypes,
    checkpoint,
    mode: input.analysis.read_via,
    batchSize: PAGE_SIZE,
  })
  // Pages in flight at once. Writing is what takes the time (PostgreSQL inserts and index updates),
  // and two concurrent transactions keep two database cores busy. Where a page must see the pages
  // before it (deduplication, case numbers), importPage waits for them at that point, so the next
  // page is still read, mapped and resolved meanwhile. The embedded database has one connection,
  // so one page at a time there.
  const concurrency = input.single ? 1 : PAGES_IN_FLIGHT
  const inFlight = new Set<Promise<unknown>>()
  let previous: PageInFlight | null = null
  let failure: { error: unknown } | null = null
  for await (const page of pages) {
    if (failure) break
    await input.checkpointGate()
    checkpoint = page.checkpoint
    // Each page waits for the one before to commit (and fails with it): they commit in order.
    const current: PageInFlight = new PageInFlight(previous)
    const written = importPage(ctx, page.records, checkpoint, rate.add(page.records.length), input.now(), current)
    previous = current
    const tracked: Promise<unknown> = written.then(
      () => inFlight.delete(tracked),
      (error: unknown) => {
        failure ??= { error }
        inFlight.delete(tracked)
      },
    )
    inFlight.add(tracked)
    if (inFlight.size >= concurrency) await Promise.race(inFlight)
  }
  await Promise.all(inFlight)
  if (failure) throw (failure as { error: unknown }).error
  await summarizeUnimportedLinks(input.db, {
    orgId: input.orgId,
    migrationId: input.migrationId,
    object: input.analysis.name,
    kind: target,
    fields,
    objects: input.objects,
    imported: (object) => importsObject(input.config, object),
    now: input.now(),
  })
}

/** Records per second over the last several pages, for the progress bar's speed and time left. */
class RateMeter {
  #samples: Array<{ at: number; n: number }> = []
  add(n: number): number | null {
    const at = performance.now()
    this.#samples.push({ at, n })
    while (this.#samples.length > 10) this.#samples.shift()
    if (this.#samples.length < 2) return null
    const first = this.#samples[0]
    const seconds = (at - first.at) / 1000
    const records = this.#samples.slice(1).reduce((sum, s) => sum + s.n, 0)
    return seconds > 0 ? records / seconds : null
  }
}
