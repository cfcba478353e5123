/** Case escalation: status `escalated`, `is_escalated`, `escalated_at`; a second escalation is a 409. */
import type { AuthContext } from '../../shared/auth-context.ts'
import { Conflict, NotFound } from '../../shared/errors.ts'
import { kindsByName } from '../kinds/index.ts'
import { findRecordJson, updateRecord, type Executor } from '../record.repository.ts'
import type { RecordChange } from '../record.service.ts'

export async function escalateCase(trx: Executor, auth: AuthContext, caseId: string): Promise<RecordChange> {
  const kind = kindsByName.case
  const json = await findRecordJson(trx, auth.orgId, kind, caseId, true)
  if (!json) throw new NotFound('Case')
  const current = JSON.parse(json) as { is_escalated: boolean; status: string }
  if (current.is_escalated) throw new Conflict('This case is already escalated.')
  const now = new Date()
  const res = await updateRecord(trx, auth.orgId, kind, caseId, { fields: { status: 'escalated', is_escalated: true, escalated_at: now.toISOString() } }, now, [])
  return { kind, id: caseId, after: JSON.parse(res!.after), before: JSON.parse(res!.before) }
}
