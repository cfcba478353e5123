/**
 * Rules that only some kinds have, as hooks the single and the bulk write paths both call: numbering
 * cases, stamping `closed_at` and escalation, keeping `converted` reserved to the convert action,
 * crediting a comment's author.
 */
import { sql, type RawBuilder } from 'kysely'
import type { AuthContext } from '../shared/auth-context.ts'
import { ValidationFailed } from '../shared/errors.ts'
import type { RecordKind } from './record-kind.ts'
import type { RowValues } from './record.repository.ts'

export interface KindRules {
  beforeCreate?(values: RowValues, auth: AuthContext): void
  beforeUpdate?(values: RowValues, auth: AuthContext): void
  /** Columns the service sets on insert, from the values written (a closed case's closed_at). */
  insertedValues?(fields: Record<string, unknown>, now: Date): Record<string, unknown>
  /** Whether created records of the kind take the next number of a sequence (cases/case-numbers.ts). */
  numbered?: boolean
  /**
   * Assignments an update adds when it writes `status`; `status` is the new value's SQL and `old`
   * the row before the change, so one rule serves a single change and a bulk one.
   */
  statusSets?(status: RawBuilder<unknown>, now: Date): RawBuilder<unknown>[]
}

const caseRules: KindRules = {
  numbered: true,
  insertedValues(fields, now) {
    const at = now.toISOString()
    if (fields.status === 'closed') return { closed_at: at }
    if (fields.status === 'escalated') return { is_escalated: true, escalated_at: at }
    return {}
  },
  statusSets(status, now) {
    const at = sql`CAST(${now.toISOString()} AS timestamptz)`
    // closed_at records when the case was closed; reopening clears it. Escalation is kept once set.
    return [
      sql`closed_at = CASE WHEN ${status} = 'closed' THEN COALESCE(old.closed_at, ${at}) ELSE NULL END`,
      sql`is_escalated = CASE WHEN ${status} = 'escalated' THEN true ELSE old.is_escalated END`,
      sql`escalated_at = CASE WHEN ${status} = 'escalated' THEN COALESCE(old.escalated_at, ${at}) ELSE old.escalated_at END`,
    ]
  },
}

function refuseConverted(values: RowValues): void {
  if (values.fields.status === 'converted') {
    throw new ValidationFailed('A lead becomes converted only through POST /api/v1/leads/{id}/convert.', [
      { field: 'status', message: 'converted is set by the convert action' },
    ])
  }
}

const leadRules: KindRules = { beforeCreate: refuseConverted, beforeUpdate: refuseConverted }

const commentRules: KindRules = {
  beforeCreate(values, auth) {
    if (auth.userId && values.fields.author_user_id === undefined) values.fields.author_user_id = auth.userId
  },
}

const NONE: KindRules = {}

export function rulesFor(kind: RecordKind): KindRules {
  switch (kind.name) {
    case 'case':
      return caseRules
    case 'lead':
      return leadRules
    case 'case_comment':
      return commentRules
    default:
      return NONE
  }
}
