/**
 * Every record write as one transaction together with its change events (the outbox). REST routes,
 * the MCP tools and any other caller go through these, so a write behaves the same whichever door
 * it came in by.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { NotFound } from '../shared/errors.ts'
import { escalateCase } from './cases/case-escalate.ts'
import { kindsByName } from './kinds/index.ts'
import { convertLead, type ConvertLeadInput, type ConvertLeadResult } from './leads/lead-convert.ts'
import type { RecordKind } from './record-kind.ts'
import { emitChange, type WriteOptions } from './record-events.ts'
import { findRecordJson } from './record.repository.ts'
import { createRecord, patchRecord, removeRecord, type RecordChange } from './record.service.ts'

type Db = Kysely<DB>

export function createWithEvents(db: Db, auth: AuthContext, kind: RecordKind, body: Record<string, unknown>, options: WriteOptions = {}): Promise<RecordChange> {
  return db.transaction().execute(async (trx) => {
    const change = await createRecord(trx, auth, kind, body)
    await emitChange(trx, auth, 'created', change, options)
    return change
  })
}

/** Null when the record does not exist in this organization. */
export function updateWithEvents(db: Db, auth: AuthContext, kind: RecordKind, id: string, body: Record<string, unknown>, options: WriteOptions = {}): Promise<RecordChange | null> {
  return db.transaction().execute(async (trx) => {
    const change = await patchRecord(trx, auth, kind, id, body)
    if (change) await emitChange(trx, auth, 'updated', change, options)
    return change
  })
}

/** Null when the record does not exist in this organization. */
export function deleteWithEvents(db: Db, auth: AuthContext, kind: RecordKind, id: string, options: WriteOptions = {}): Promise<RecordChange | null> {
  return db.transaction().execute(async (trx) => {
    const change = await removeRecord(trx, auth, kind, id)
    if (change) await emitChange(trx, auth, 'deleted', change, options)
    return change
  })
}

export function addCaseComment(db: Db, auth: AuthContext, caseId: string, body: Record<string, unknown>, options: WriteOptions = {}): Promise<RecordChange> {
  return db.transaction().execute(async (trx) => {
    // Lock the case so a concurrent delete cannot leave the comment orphaned mid-request.
    const parent = await findRecordJson(trx, auth.orgId, kindsByName.case, caseId, true)
    if (!parent) throw new NotFound('Case')
    const change = await createRecord(trx, auth, kindsByName.case_comment, body, { fixed: { case_id: caseId } })
    await emitChange(trx, auth, 'created', change, options)
    return change
  })
}

export function convertLeadWithEvents(db: Db, auth: AuthContext, leadId: string, input: ConvertLeadInput, options: WriteOptions = {}): Promise<ConvertLeadResult> {
  return db.transaction().execute(async (trx) => {
    const result = await convertLead(trx, auth, leadId, input)
    for (const c of result.created) await emitChange(trx, auth, 'created', c, options)
    await emitChange(trx, auth, 'converted', result.lead, options)
    return result
  })
}

export function escalateCaseWithEvents(db: Db, auth: AuthContext, caseId: string, options: WriteOptions = {}): Promise<RecordChange> {
  return db.transaction().execute(async (trx) => {
    const change = await escalateCase(trx, auth, caseId)
    await emitChange(trx, auth, 'escalated', change, options)
    return change
  })
}
