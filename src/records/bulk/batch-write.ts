/**
 * Many writes of one kind in one transaction, all or nothing: the batch endpoint, the upsert by
 * src_id and the MCP batch tool come through here. Every item is checked before anything is written,
 * and a refused batch names each failing item by its index and field (docs/api.md, "Batch writes").
 * Writes go through the bulk statements (bulk-sql.ts); each record written emits its usual events in
 * the same transaction, and the answer shows each record as its caller may see it.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { AuthContext } from '../../shared/auth-context.ts'
import { NotFound, ProblemError, type FieldError } from '../../shared/errors.ts'
import { uuidv7 } from '../../shared/ids.ts'
import { allocateCaseNumbers } from '../cases/case-numbers.ts'
import { kindsByName } from '../kinds/index.ts'
import { recordForCaller } from '../record-access.ts'
import { mapRecordDbError } from '../record-errors.ts'
import { inWriteTransaction, type RecordAction, type Writer } from '../write-context.ts'
import type { RecordKind } from '../record-kind.ts'
import { findRecordJson, type RowValues } from '../record.repository.ts'
import { rulesFor } from '../record-rules.ts'
import { withoutNulls } from '../record-sql.ts'
import { selectDefinitions } from '../custom-fields/definitions.repository.ts'
import type { RecordChange } from '../record.service.ts'
import { batchInvalid, checkItems, type BatchOperation, type CheckedItem } from './batch-items.ts'
import { findExisting, missingReferences, takenSrcIds } from './batch-lookups.ts'
import { columnsOf, deleteRows, insertRows, updateRows, type BulkRow, type UpdateRow } from './bulk-sql.ts'
import { sql } from 'kysely'
import { withArticle } from '../record-labels.ts'
import { picklistOptionsOf } from '../picklists/standard-picklists.ts'
import { withDefaultOwner } from '../owner-filter.ts'

type Db = Kysely<DB>
type Shown = Record<string, unknown> & { id: string }

export interface BatchResult {
  /** The written records in input order, as the caller may see them (delete: none). */
  records: Shown[]
  /** For each item, whether a record was created (create: all; upsert: the new ones). */
  created: boolean[]
  /** The ids in input order (delete: the deleted ids). */
  ids: string[]
}

export interface BatchOptions {
  /** Case comments of this case only (the batch endpoint under a case). */
  caseId?: string
}

/**
 * Batches racing on the same records run again: the loser of a src_id insert race finds the record
 * (upsert: updates it; create: is refused naming the item), and a deadlock's victim (key orders
 * make them rare, but an update by id and an upsert by src_id can still cross) retries whole. Each
 * src_id race means another batch committed, so n batches at once settle within n attempts.
 */
const WRITE_ATTEMPTS = 10

export async function writeBatch(db: Db, writer: Writer, kind: RecordKind, operation: BatchOperation, items: readonly unknown[], options: BatchOptions = {}): Promise<BatchResult> {
  const { auth } = writer
  // The retry of a keyed batch whose first attempt committed gets that batch's result, unchecked and unwritten.
  const earlier = auth.receipt?.takeReplayed()
  if (earlier) return earlier.outcome as BatchResult
  const defs = operation === 'delete' ? [] : await selectDefinitions(db, auth.orgId, kind.name)
  const picklists = operation === 'delete' ? new Map() : await picklistOptionsOf(db, auth.orgId, kind)
  // A created record is owned by its creator unless the item says otherwise (owner-filter.ts).
  const bodies = operation === 'create' ? items.map((item) => (isBody(item) ? withDefaultOwner(kind, auth, item) : item)) : items
  const checked = checkItems(kind, operation, bodies, auth, defs, options.caseId, picklists)
  for (let attempt = 1; ; attempt++) {
    try {
      return await inWriteTransaction(db, writer, async (tx) => {
        const plan = await planWrites(tx.trx, auth, kind, operation, checked, options)
        const written = await applyPlan(tx.trx, auth, kind, plan, new Date())
        // A bulk write numbers its events itself, under the journal counter lock (src/events/sequencer.ts).
        for (const [action, changes] of written.events) await tx.changed(action, changes, { numberEvents: {} })
        return answer(auth, kind, operation, checked, written)
      })
    } catch (err) {
      if (attempt < WRITE_ATTEMPTS && (isSrcIdRace(err) || isDeadlock(err))) continue
      if (err instanceof ProblemError) throw err
      mapRecordDbError(kind, err)
    }
  }
}

function isBody(item: unknown): item is Record<string, unknown> {
  return typeof item === 'object' && item !== null && !Array.isArray(item)
}

function isDeadlock(err: unknown): boolean {
  return (err as { code?: string })?.code === '40P01'
}

function isSrcIdRace(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string }
  return e?.code === '23505' && !!e.constraint?.endsWith('src_id_key')
}

export interface Plan {
  creates: CheckedItem[]
  updates: Array<CheckedItem & { id: string }>
  deletes: Array<CheckedItem & { id: string }>
}

/** Looks up what the items name, inside the transaction, and refuses the batch on any problem. */
async function planWrites(trx: Db, auth: AuthContext, kind: RecordKind, operation: BatchOperation, items: CheckedItem[], options: BatchOptions): Promise<Plan> {
  const errors: FieldError[] = []
  const orgId = auth.orgId
  if (options.caseId && !(await findRecordJson(trx, orgId, kindsByName.case, options.caseId, true))) throw new NotFound('Case')
  const plan: Plan = { creates: [], updates: [], deletes: [] }

  if (operation === 'update' || operation === 'delete') {
    const found = await findExisting(trx, orgId, kind, 'id', items.map((i) => i.id!), options.caseId)
    for (const item of items) {
      if (!found.has(item.id!)) errors.push({ index: item.index, field: `records[${item.index}].id`, message: `is not the id of ${withArticle(kind.label.toLowerCase())} of this organization${options.caseId ? ' on this case' : ''}` })
      else (operation === 'update' ? plan.updates : plan.deletes).push({ ...item, id: item.id! })
    }
  } else if (operation === 'upsert') {
    const found = await findExisting(trx, orgId, kind, 'src_id', items.map((i) => i.values.srcId!), options.caseId)
    for (const item of items) {
      const id = found.get(item.values.srcId!)
      if (id) plan.updates.push({ ...item, id })
      else plan.creates.push(item)
    }
  } else {
    plan.creates = items
    const srcIds = items.map((i) => i.values.srcId).filter((s): s is string => typeof s === 'string')
    const taken = await takenSrcIds(trx, orgId, kind, srcIds)
    for (const item of items) {
      if (item.values.srcId && taken.has(item.values.srcId)) {
        errors.push({ index: item.index, field: `records[${item.index}].src_id`, message: `is already the src_id of another ${kind.label.toLowerCase()} of this organization` })
      }
    }
  }
  if (operation !== 'delete') errors.push(...(await missingReferences(trx, orgId, kind, items)))
  if (errors.length > 0) throw batchInvalid(errors)
  return plan
}

export interface Written {
  /**
   * Index -> the change that wrote the record; its `after`, parsed once, is shared by its event and
   * the answer (neither changes it; recordForCaller copies when it hides a field).
   */
  after: Map<number, RecordChange>
  created: Set<number>
  events: Map<RecordAction, RecordChange[]>
}

/** Groups of items that carry the same fields: one statement per group (usually one). */
function groupBySignature<T extends { values: RowValues }>(items: readonly T[], extra: (item: T) => Record<string, unknown>): Map<string, Array<{ item: T; fields: Record<string, unknown> }>> {
  const groups = new Map<string, Array<{ item: T; fields: Record<string, unknown> }>>()
  for (const item of items) {
    const fields = { ...item.values.fields, ...extra(item) }
    const key = `${Object.keys(fields).sort().join(',')}|${item.values.customFields !== undefined}|${item.values.srcId !== undefined}`
    let group = groups.get(key)
    if (!group) groups.set(key, (group = []))
    group.push({ item, fields })
  }
  return groups
}

/** Writes a plan whose items were all checked and found writable; the caller emits `events`. */
export async function applyPlan(trx: Db, auth: AuthContext, kind: RecordKind, plan: Plan, now: Date): Promise<Written> {
  const written: Written = { after: new Map(), created: new Set(), events: new Map() }
  const record = (action: RecordAction, change: RecordChange) => {
    const list = written.events.get(action) ?? []
    list.push(change)
    written.events.set(action, list)
  }
  const rules = rulesFor(kind)

  if (plan.creates.length > 0) {
    const numbers = rules.numbered ? await allocateCaseNumbers(trx, auth.orgId, plan.creates.length) : []
    const extra = new Map(plan.creates.map((item, i) => [item, { ...rules.insertedValues?.(item.values.fields, now), ...(rules.numbered ? { case_number: numbers[i] } : {}) }]))
    for (const group of groupBySignature(plan.creates, (item) => extra.get(item)!).values()) {
      const ids = group.map(() => uuidv7(now))
      const rows: BulkRow[] = group.map(({ item, fields }, i) => ({ id: ids[i], src_id: item.values.srcId ?? null, created_at: now, fields, custom_fields: item.values.customFields && withoutNulls(item.values.customFields) }))
      // Inserted in src_id order, as findExisting locks: two batches creating the same new src_ids
      // then meet on the first one they share instead of each waiting on the other's.
      const res = await insertRows(trx, auth.orgId, kind, columnsOf(kind, Object.keys(group[0].fields)), inSrcIdOrder(rows), now, { onSrcId: 'fail', returning: 'json' })
      const byId = new Map(res.rows.map((r) => [r.id, r.json!]))
      group.forEach(({ item }, i) => {
        const change = createdChange(kind, ids[i], byId.get(ids[i])!)
        written.after.set(item.index, change)
        written.created.add(item.index)
        record('created', change)
      })
    }
  }

  if (plan.updates.length > 0) {
    for (const group of groupBySignature(plan.updates, () => ({})).values()) {
      const names = Object.keys(group[0].fields)
      const rows: UpdateRow[] = group.map(({ item, fields }) => ({ id: item.id, src_id: item.values.srcId, fields, custom_fields: item.values.customFields }))
      const extraSets = names.includes('status') && rules.statusSets ? rules.statusSets(sql`CAST(x.status AS text)`, now) : []
      const res = await updateRows(trx, auth.orgId, kind, columnsOf(kind, names), rows, now, { customFields: 'patch', srcId: 'set', extraSets, returnJson: true })
      const byId = new Map(res.map((r) => [r.id, r]))
      for (const { item } of group) {
        const row = byId.get(item.id)!
        const change: RecordChange = { kind, id: item.id, after: JSON.parse(row.after!) as Shown, before: JSON.parse(row.before!) }
        written.after.set(item.index, change)
        record('updated', change)
      }
    }
  }

  if (plan.deletes.length > 0) {
    const deletion = await deleteRows(trx, auth.orgId, kind, plan.deletes.map((d) => d.id))
    for (const change of deletion.deleted) record('deleted', change)
    for (const change of deletion.unlinked) record('updated', change)
  }
  return written
}

function inSrcIdOrder(rows: BulkRow[]): BulkRow[] {
  if (!rows.some((r) => r.src_id !== null)) return rows
  return [...rows].sort((a, b) => (a.src_id === b.src_id ? 0 : a.src_id === null ? 1 : b.src_id === null ? -1 : a.src_id < b.src_id ? -1 : 1))
}

/** A created record's change from its JSON text, parsed the first time `after` is read. */
function createdChange(kind: RecordKind, id: string, text: string): RecordChange {
  let parsed: Shown | undefined
  return {
    kind,
    id,
    before: null,
    afterText: text,
    get after(): Shown {
      return (parsed ??= JSON.parse(text) as Shown)
    },
  }
}

function answer(auth: AuthContext, kind: RecordKind, operation: BatchOperation, items: CheckedItem[], written: Written): BatchResult {
  if (operation === 'delete') return { records: [], created: items.map(() => false), ids: items.map((i) => i.id!) }
  const records = items.map((item) => recordForCaller(kind, auth, written.after.get(item.index)!.after as Shown) as Shown)
  return { records, created: items.map((i) => written.created.has(i.index)), ids: records.map((r) => r.id) }
}
