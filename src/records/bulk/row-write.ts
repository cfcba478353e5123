/**
 * The bulk write of a CSV import: many rows of one kind in the caller's transaction, each row
 * checked exactly as a batch item is (the single write's schema and rules, references, src_ids
 * taken), but a row that fails is reported with its problems and the others are still written
 * (docs/imports.md). The writes are the batch endpoint's (batch-write.ts applyPlan, bulk-sql.ts), and
 * every record written emits its usual events in the same transaction.
 */
import type { AuthContext } from '../../shared/auth-context.ts'
import type { WriteOptions, WriteTx } from '../write-context.ts'
import type { RecordKind } from '../record-kind.ts'
import { withArticle } from '../record-labels.ts'
import { checkEachItem, type CheckedItem } from './batch-items.ts'
import { findExisting, missingReferences } from './batch-lookups.ts'
import { applyPlan, type Plan } from './batch-write.ts'
import { selectDefinitions } from '../custom-fields/definitions.repository.ts'
import type { CustomFieldDefinition } from '../custom-fields/definition.ts'

export interface RowToWrite {
  /** The caller's number for the row; problems name it. */
  row: number
  /** Set: change this record (only the fields in `body`); absent: create one. */
  id?: string
  body: Record<string, unknown>
}

export interface RowProblem {
  row: number
  /** The record field at fault, or null for the row as a whole. */
  field: string | null
  message: string
}

export interface RowsWritten {
  created: number
  updated: number
  problems: RowProblem[]
  /** Records of the rows written, by row: the created or changed record's id. */
  ids: Map<number, string>
  /**
   * Rows refused because their src_id is another record's (among `problems`). A caller that matched
   * its rows by src_id earlier in the transaction reads these as another writer's commit since.
   */
  srcIdTaken: number[]
}

/** `records[3].email` -> `email`; `records[3]` -> null. */
function fieldOf(path: string): string | null {
  const m = /^records\[\d+\]\.?(.*)$/.exec(path)
  const name = m ? m[1] : path
  return name === '' || name === '(body)' ? null : name
}

/**
 * Writes the rows that pass every check, in the write transaction `tx` (rows it finds are locked).
 * Events are numbered in the transaction (a bulk write, WriteOptions.numberEvents), after `options.numberEventsAfter`.
 */
export async function writeRowsReportingProblems(tx: WriteTx, kind: RecordKind, rows: readonly RowToWrite[], now: Date, options: { numberEventsAfter?: PromiseLike<unknown> } = {}): Promise<RowsWritten> {
  const { trx } = tx
  const { auth } = tx.writer
  const problems: RowProblem[] = []
  const creates = rows.filter((r) => r.id === undefined)
  const updates = rows.filter((r) => r.id !== undefined)
  // Custom fields are checked as on every write (docs/custom-fields.md): a bad value is the row's problem.
  const defs = await selectDefinitions(trx, auth.orgId, kind.name)
  const checkedCreates = check(kind, 'create', creates, creates.map((r) => r.body), auth, defs, problems)
  const checkedUpdates = check(kind, 'update', updates, updates.map((r) => ({ id: r.id, ...r.body })), auth, defs, problems)

  const refused = new Set<number>()
  const refuse = (row: number, field: string | null, message: string) => {
    refused.add(row)
    problems.push({ row, field, message })
  }
  const found = await findExisting(trx, auth.orgId, kind, 'id', checkedUpdates.map((i) => i.id!))
  for (const item of checkedUpdates) if (!found.has(item.id!)) refuse(item.index, null, `the matching ${kind.label.toLowerCase()} was deleted while the file was imported`)
  // A src_id written must not be another record's (the unique key would fail the whole page).
  const srcIds = [...checkedCreates, ...checkedUpdates].map((i) => i.values.srcId).filter((s): s is string => typeof s === 'string')
  const holders = await findExisting(trx, auth.orgId, kind, 'src_id', srcIds)
  const srcIdTaken: number[] = []
  for (const item of [...checkedCreates, ...checkedUpdates]) {
    const holder = item.values.srcId ? holders.get(item.values.srcId) : undefined
    if (holder === undefined || holder === item.id) continue
    srcIdTaken.push(item.index)
    refuse(item.index, 'src_id', `is already the src_id of ${withArticle(kind.label.toLowerCase())} of this organization (import with dedupe_by=src_id to update it)`)
  }
  const live = [...checkedCreates, ...checkedUpdates].filter((i) => !refused.has(i.index))
  for (const e of await missingReferences(trx, auth.orgId, kind, live)) refuse(e.index!, fieldOf(e.field), e.message)

  const plan: Plan = {
    creates: checkedCreates.filter((i) => !refused.has(i.index)),
    updates: checkedUpdates.filter((i) => !refused.has(i.index)).map((i) => ({ ...i, id: i.id! })),
    deletes: [],
  }
  const written = await applyPlan(trx, auth, kind, plan, now)
  const eventOptions: WriteOptions = { numberEvents: { after: options.numberEventsAfter } }
  for (const [action, changes] of written.events) await tx.changed(action, changes, eventOptions)
  const ids = new Map<number, string>()
  for (const [row, record] of written.after) ids.set(row, record.id)
  problems.sort((a, b) => a.row - b.row)
  return { created: plan.creates.length, updated: plan.updates.length, problems, ids, srcIdTaken }
}

/** Checks items as the batch does; the items keep the caller's row numbers as their index. */
function check(
  kind: RecordKind,
  operation: 'create' | 'update',
  rows: readonly RowToWrite[],
  items: unknown[],
  auth: AuthContext,
  defs: readonly CustomFieldDefinition[],
  problems: RowProblem[],
): CheckedItem[] {
  const { checked, errors } = checkEachItem(kind, operation, items, auth, defs)
  for (const e of errors) problems.push({ row: rows[e.index!].row, field: fieldOf(e.field), message: e.message })
  return checked.map((item) => ({ ...item, index: rows[item.index].row }))
}
