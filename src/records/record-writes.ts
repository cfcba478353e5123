/**
 * Every record write as one transaction together with its change events (the outbox). REST routes,
 * the MCP tools and any other caller go through these, so a write behaves the same whichever door
 * it came in by; each answers with the written record as its caller may see it (record-access.ts),
 * so no door can echo what the caller's scopes could not read.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { writeTransaction } from '../db/write-transaction.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { NotFound } from '../shared/errors.ts'
import { escalateCase } from './cases/case-escalate.ts'
import { kindsByName } from './kinds/index.ts'
import { convertLead, type ConvertLeadInput } from './leads/lead-convert.ts'
import type { RecordKind } from './record-kind.ts'
import { changesCommitted, emitChange, type RecordAction, type WriteOptions } from './record-events.ts'
import { findRecordJson } from './record.repository.ts'
import { createRecord, patchRecord, removeRecord, type RecordChange } from './record.service.ts'
import { recordForCaller } from './record-access.ts'

type Db = Kysely<DB>
/** A written record as the caller may see it: whole, with hidden fields null, or only id and times. */
export type WrittenRecord = Record<string, unknown> & { id: string }
type Emit = (action: RecordAction, change: RecordChange) => Promise<void>

/** One transaction for the write and its events; listeners hear of queued work after the commit. */
async function writeWithEvents<T>(db: Db, auth: AuthContext, options: WriteOptions, work: (trx: Db, emit: Emit) => Promise<T>): Promise<T> {
  let queued = false
  // A keyed request records its outcome in this transaction; its retry gets the outcome back here.
  const result = await writeTransaction(db, auth.receipt, (trx) =>
    work(trx, async (action, change) => {
      if (await emitChange(trx, auth, action, change, options)) queued = true
    }),
  )
  if (queued) changesCommitted()
  return result
}

function answer(auth: AuthContext, change: RecordChange): WrittenRecord {
  return recordForCaller(change.kind, auth, (change.after ?? change.before)!) as WrittenRecord
}

export function createWithEvents(db: Db, auth: AuthContext, kind: RecordKind, body: Record<string, unknown>, options: WriteOptions = {}): Promise<WrittenRecord> {
  return writeWithEvents(db, auth, options, async (trx, emit) => {
    const change = await createRecord(trx, auth, kind, body)
    await emit('created', change)
    return answer(auth, change)
  })
}

/** Null when the record does not exist in this organization. */
export function updateWithEvents(db: Db, auth: AuthContext, kind: RecordKind, id: string, body: Record<string, unknown>, options: WriteOptions = {}): Promise<WrittenRecord | null> {
  return writeWithEvents(db, auth, options, async (trx, emit) => {
    const change = await patchRecord(trx, auth, kind, id, body)
    if (!change) return null
    await emit('updated', change)
    return answer(auth, change)
  })
}

/** False when the record does not exist in this organization. */
export function deleteWithEvents(db: Db, auth: AuthContext, kind: RecordKind, id: string, options: WriteOptions = {}): Promise<boolean> {
  return writeWithEvents(db, auth, options, async (trx, emit) => {
    const change = await removeRecord(trx, auth, kind, id)
    if (!change) return false
    await emit('deleted', change)
    return true
  })
}

export function addCaseComment(db: Db, auth: AuthContext, caseId: string, body: Record<string, unknown>, options: WriteOptions = {}): Promise<WrittenRecord> {
  return writeWithEvents(db, auth, options, async (trx, emit) => {
    // Lock the case so a concurrent delete cannot leave the comment orphaned mid-request.
    const parent = await findRecordJson(trx, auth.orgId, kindsByName.case, caseId, true)
    if (!parent) throw new NotFound('Case')
    const change = await createRecord(trx, auth, kindsByName.case_comment, body, { fixed: { case_id: caseId } })
    await emit('created', change)
    return answer(auth, change)
  })
}

export type ConvertedLead = {
  lead: WrittenRecord
  account: WrittenRecord
  contact: WrittenRecord
  opportunity: WrittenRecord | null
}

export function convertLeadWithEvents(db: Db, auth: AuthContext, leadId: string, input: ConvertLeadInput, options: WriteOptions = {}): Promise<ConvertedLead> {
  return writeWithEvents(db, auth, options, async (trx, emit) => {
    const result = await convertLead(trx, auth, leadId, input)
    for (const c of result.created) await emit('created', c)
    await emit('converted', result.lead)
    const shown = (kind: keyof typeof kindsByName, record: Record<string, unknown>) => recordForCaller(kindsByName[kind], auth, record) as WrittenRecord
    return {
      lead: answer(auth, result.lead),
      account: shown('account', result.account),
      contact: shown('contact', result.contact),
      opportunity: result.opportunity && shown('opportunity', result.opportunity),
    }
  })
}

export function escalateCaseWithEvents(db: Db, auth: AuthContext, caseId: string, options: WriteOptions = {}): Promise<WrittenRecord> {
  return writeWithEvents(db, auth, options, async (trx, emit) => {
    const change = await escalateCase(trx, auth, caseId)
    await emit('escalated', change)
    return answer(auth, change)
  })
}
