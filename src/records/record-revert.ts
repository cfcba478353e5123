/**
 * Undoing an operation's changes, as records writes them (the planning from history is
 * src/events/history's): a created record deleted, a deleted one restored with its id and values, a
 * changed field set back. Every step runs in the caller's write transaction (write-context.ts), so
 * the revert is an operation of its own, journaled like any other change.
 *
 * A step leaves alone what someone changed since the operation, unless forced: a field is set back
 * only where it still holds the value the operation left (compared under the row's lock, so a write
 * racing the revert is either seen or waits), a created record is deleted only where nobody wrote to
 * it since (the caller's `changedSince`, asked after the rows are locked), and a record is restored
 * only where no record has its id.
 */
import { CompiledQuery, sql } from 'kysely'
import { kindsByName, recordKinds } from './kinds/index.ts'
import type { KindName, RecordKind } from './record-kind.ts'
import type { RecordChange } from './record.service.ts'
import { findRecordJson, insertRecord, updateRecord, type RowValues } from './record.repository.ts'
import { deleteRecords } from './record-deletion.ts'
import { uuidSet } from '../db/json-array.ts'
import type { WriteTx } from './write-context.ts'

export type RevertStep =
  | { action: 'delete'; kind: KindName; id: string }
  | { action: 'restore'; kind: KindName; id: string; snapshot: Record<string, unknown> }
  | { action: 'set'; kind: KindName; id: string; fields: FieldReversal[] }

/** A field to set back to `value`, where it still holds `expected` (what the operation left). */
export interface FieldReversal {
  field: string
  expected: unknown
  value: unknown
}

export interface RevertConflict {
  kind: KindName
  record_id: string
  field?: string
  reason: 'changed_since' | 'deleted_since' | 'id_in_use' | 'reference_gone'
}

export interface RevertOutcome {
  /** Records the steps changed. */
  reverted: number
  conflicts: RevertConflict[]
}

/** Which of these records someone else wrote to after the operation (asked with the rows locked). */
export type ChangedSince = (kind: KindName, ids: readonly string[]) => Promise<ReadonlySet<string>>

/** Columns a record's JSON answers that are not fields a revert sets. */
const NOT_FIELDS = new Set(['id', 'created_at', 'updated_at'])

/**
 * Runs the steps in the order references allow: restores first, parents before children (the
 * kinds' table order), then fields set back, then deletes.
 */
export async function applyRevertSteps(tx: WriteTx, steps: readonly RevertStep[], options: { force: boolean; changedSince: ChangedSince }): Promise<RevertOutcome> {
  const outcome: RevertOutcome = { reverted: 0, conflicts: [] }
  const order = (k: KindName) => recordKinds.findIndex((x) => x.name === k)
  const restores = steps.filter((s) => s.action === 'restore').sort((a, b) => order(a.kind) - order(b.kind))
  for (const step of restores) await restore(tx, step, outcome)
  for (const step of steps) if (step.action === 'set') await setBack(tx, step, options.force, outcome)
  const deletes = steps.filter((s) => s.action === 'delete')
  for (const kind of [...new Set(deletes.map((s) => s.kind))].sort((a, b) => order(b) - order(a))) {
    await deleteCreated(tx, kindsByName[kind], deletes.filter((s) => s.kind === kind).map((s) => s.id), options, outcome)
  }
  return outcome
}

async function restore(tx: WriteTx, step: Extract<RevertStep, { action: 'restore' }>, outcome: RevertOutcome): Promise<void> {
  const kind = kindsByName[step.kind]
  const orgId = tx.writer.auth.orgId
  if ((await findRecordJson(tx.trx, orgId, kind, step.id, true)) !== null) {
    outcome.conflicts.push({ kind: step.kind, record_id: step.id, reason: 'id_in_use' })
    return
  }
  const values: RowValues = { fields: {} }
  for (const f of kind.fields) {
    if (NOT_FIELDS.has(f.name) || !(f.name in step.snapshot)) continue
    let value = step.snapshot[f.name]
    // A record it referred to is gone (deleted since, by someone else): restored without the reference.
    if (f.type === 'ref' && typeof value === 'string' && f.ref && (await findRecordJson(tx.trx, orgId, kindsByName[f.ref], value)) === null) {
      outcome.conflicts.push({ kind: step.kind, record_id: step.id, field: f.name, reason: 'reference_gone' })
      value = null
    }
    values.fields[f.name] = value
  }
  if ('src_id' in step.snapshot) values.srcId = step.snapshot.src_id as string | null
  if (step.snapshot.custom_fields && typeof step.snapshot.custom_fields === 'object') values.customFields = step.snapshot.custom_fields as Record<string, unknown>
  const createdAt = typeof step.snapshot.created_at === 'string' ? new Date(step.snapshot.created_at) : new Date()
  const json = await insertRecord(tx.trx, orgId, kind, step.id, createdAt, values, undefined, new Date())
  // Live again: no longer among the deleted records sync clients page through.
  await tx.trx.executeQuery(CompiledQuery.raw('DELETE FROM record_tombstones WHERE org_id = $1 AND kind = $2 AND id = CAST($3 AS uuid)', [orgId, kind.table, step.id]))
  await tx.changed('restored', [{ kind, id: step.id, before: null, after: JSON.parse(json) }])
  outcome.reverted++
}

async function setBack(tx: WriteTx, step: Extract<RevertStep, { action: 'set' }>, force: boolean, outcome: RevertOutcome): Promise<void> {
  const kind = kindsByName[step.kind]
  const orgId = tx.writer.auth.orgId
  const text = await findRecordJson(tx.trx, orgId, kind, step.id, true)
  if (text === null) {
    outcome.conflicts.push({ kind: step.kind, record_id: step.id, reason: 'deleted_since' })
    return
  }
  const current = JSON.parse(text) as Record<string, unknown>
  const values: RowValues = { fields: {} }
  let any = false
  for (const r of step.fields) {
    if (NOT_FIELDS.has(r.field)) continue
    if (!force && !sameValue(current[r.field], r.expected)) {
      outcome.conflicts.push({ kind: step.kind, record_id: step.id, field: r.field, reason: 'changed_since' })
      continue
    }
    if (sameValue(current[r.field], r.value)) continue
    if (r.field === 'src_id') values.srcId = r.value as string | null
    else if (r.field === 'custom_fields') values.customFields = customFieldsBack(current.custom_fields, r.value)
    else if (kind.fields.some((f) => f.name === r.field)) values.fields[r.field] = await referenceOrNull(tx, kind, step, r, outcome)
    else continue
    any = true
  }
  if (!any) return
  const res = await updateRecord(tx.trx, orgId, kind, step.id, values, new Date())
  if (!res) return
  const change: RecordChange = { kind, id: step.id, before: JSON.parse(res.before), after: JSON.parse(res.after) }
  await tx.changed('updated', [change])
  outcome.reverted++
}

/** A reference set back to a record that is gone since becomes null, said as a conflict. */
async function referenceOrNull(tx: WriteTx, kind: RecordKind, step: { kind: KindName; id: string }, r: FieldReversal, outcome: RevertOutcome): Promise<unknown> {
  const f = kind.fields.find((x) => x.name === r.field)!
  if (f.type !== 'ref' || !f.ref || typeof r.value !== 'string') return r.value
  if ((await findRecordJson(tx.trx, tx.writer.auth.orgId, kindsByName[f.ref], r.value)) !== null) return r.value
  outcome.conflicts.push({ kind: step.kind, record_id: step.id, field: r.field, reason: 'reference_gone' })
  return null
}

/** Custom fields merge on update: the keys the operation added are set to null to remove them. */
function customFieldsBack(current: unknown, value: unknown): Record<string, unknown> {
  const back: Record<string, unknown> = { ...((value as Record<string, unknown> | null) ?? {}) }
  for (const key of Object.keys((current as Record<string, unknown> | null) ?? {})) if (!(key in back)) back[key] = null
  return back
}

/** Deletes the records an operation created, but those someone wrote to since (unless forced), in one statement. */
async function deleteCreated(tx: WriteTx, kind: RecordKind, ids: string[], options: { force: boolean; changedSince: ChangedSince }, outcome: RevertOutcome): Promise<void> {
  const orgId = tx.writer.auth.orgId
  // Locked first, so a write racing the revert either committed before (and is seen) or waits for it.
  const locked = await sql<{ id: string }>`
    SELECT id FROM ${sql.raw(kind.table)} WHERE org_id = ${orgId} AND id IN ${uuidSet(ids)} ORDER BY id FOR UPDATE`.execute(tx.trx)
  let doomed = locked.rows.map((r) => r.id)
  if (!options.force && doomed.length > 0) {
    const changed = await options.changedSince(kind.name, doomed)
    for (const id of changed) outcome.conflicts.push({ kind: kind.name, record_id: id, reason: 'changed_since' })
    doomed = doomed.filter((id) => !changed.has(id))
  }
  if (doomed.length === 0) return
  const deletion = await deleteRecords(tx.trx, orgId, kind, sql`r.id IN ${uuidSet(doomed)}`)
  await tx.changed('deleted', deletion.deleted)
  await tx.changed('updated', deletion.unlinked)
  outcome.reverted += deletion.deleted.filter((c) => c.kind === kind).length
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null)
}
