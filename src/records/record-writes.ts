/**
 * Every single-record write and special action as one write transaction (write-context.ts): the
 * record, its tombstone when deleted, and its journal entries commit together. REST routes, the MCP
 * tools and any other caller go through these, so a write behaves the same whichever door it came
 * in by; each answers with the written record as its caller may see it (record-access.ts), so no
 * door can echo what the caller's scopes could not read.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { NotFound } from '../shared/errors.ts'
import { escalateCase } from './cases/case-escalate.ts'
import { kindsByName } from './kinds/index.ts'
import { convertLead, type ConvertLeadInput, type LeadConversion } from './leads/lead-convert.ts'
import type { RecordKind } from './record-kind.ts'
import { inWriteTransaction, type Writer } from './write-context.ts'
import { findRecordJson } from './record.repository.ts'
import { createRecord, patchRecord, removeRecord, type RecordChange } from './record.service.ts'
import { recordForCaller } from './record-access.ts'
import { withDefaultOwner } from './owner-filter.ts'

type Db = Kysely<DB>
/** A written record as the caller may see it: whole, with hidden fields null, or only id and times. */
export type WrittenRecord = Record<string, unknown> & { id: string }

function answer(auth: AuthContext, change: RecordChange): WrittenRecord {
  return recordForCaller(change.kind, auth, (change.after ?? change.before)!) as WrittenRecord
}

export function createWithEvents(db: Db, writer: Writer, kind: RecordKind, body: Record<string, unknown>): Promise<WrittenRecord> {
  const { auth } = writer
  return inWriteTransaction(db, writer, async (tx) => {
    const change = await createRecord(tx.trx, auth, kind, withDefaultOwner(kind, auth, body))
    await tx.changed('created', [change])
    return answer(auth, change)
  })
}

/** Null when the record does not exist in this organization. */
export function updateWithEvents(db: Db, writer: Writer, kind: RecordKind, id: string, body: Record<string, unknown>): Promise<WrittenRecord | null> {
  const { auth } = writer
  return inWriteTransaction(db, writer, async (tx) => {
    const change = await patchRecord(tx.trx, auth, kind, id, body)
    if (!change) return null
    await tx.changed('updated', [change])
    return answer(auth, change)
  })
}

/** False when the record does not exist in this organization. */
export function deleteWithEvents(db: Db, writer: Writer, kind: RecordKind, id: string): Promise<boolean> {
  return inWriteTransaction(db, writer, async (tx) => {
    const deletion = await removeRecord(tx.trx, writer.auth, kind, id)
    if (!deletion) return false
    await tx.changed('deleted', deletion.deleted)
    await tx.changed('updated', deletion.unlinked)
    return true
  })
}

export function addCaseComment(db: Db, writer: Writer, caseId: string, body: Record<string, unknown>): Promise<WrittenRecord> {
  const { auth } = writer
  return inWriteTransaction(db, writer, async (tx) => {
    // Lock the case so a concurrent delete cannot leave the comment orphaned mid-request.
    const parent = await findRecordJson(tx.trx, auth.orgId, kindsByName.case, caseId, true)
    if (!parent) throw new NotFound('Case')
    const change = await createRecord(tx.trx, auth, kindsByName.case_comment, body, { fixed: { case_id: caseId } })
    await tx.changed('created', [change])
    return answer(auth, change)
  })
}

export type ConvertedLead = {
  conversion: LeadConversion
  lead: WrittenRecord
  account: WrittenRecord
  contact: WrittenRecord
  opportunity: WrittenRecord | null
}

export function convertLeadWithEvents(db: Db, writer: Writer, leadId: string, input: ConvertLeadInput): Promise<ConvertedLead> {
  const { auth } = writer
  return inWriteTransaction(db, writer, async (tx) => {
    const result = await convertLead(tx.trx, auth, leadId, input)
    for (const c of result.created) await tx.changed('created', [c])
    await tx.changed('converted', [result.lead])
    const shown = (kind: keyof typeof kindsByName, record: Record<string, unknown>) => recordForCaller(kindsByName[kind], auth, record) as WrittenRecord
    return {
      conversion: result.conversion,
      lead: answer(auth, result.lead),
      account: shown('account', result.account),
      contact: shown('contact', result.contact),
      opportunity: result.opportunity && shown('opportunity', result.opportunity),
    }
  })
}

export function escalateCaseWithEvents(db: Db, writer: Writer, caseId: string): Promise<WrittenRecord> {
  const { auth } = writer
  return inWriteTransaction(db, writer, async (tx) => {
    const change = await escalateCase(tx.trx, auth, caseId)
    await tx.changed('escalated', [change])
    return answer(auth, change)
  })
}
