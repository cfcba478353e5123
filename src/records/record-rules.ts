/**
 * Rules that only some kinds have, as hooks the generic service calls: numbering cases, stamping
 * `closed_at`, keeping `converted` reserved to the convert action, crediting a comment's author.
 */
import { sql, type RawBuilder } from 'kysely'
import type { AuthContext } from '../shared/auth-context.ts'
import { ValidationFailed } from '../shared/errors.ts'
import type { RecordKind } from './record-kind.ts'
import { nextCounterCte, type RowValues } from './record.repository.ts'

export interface KindRules {
  beforeCreate?(values: RowValues, auth: AuthContext): void
  beforeUpdate?(values: RowValues, auth: AuthContext): void
  insertExtras?(orgId: string, values: RowValues): { columns: string[]; values: RawBuilder<unknown>[]; with?: RawBuilder<unknown> }
  updateExtras?(values: RowValues, now: Date): RawBuilder<unknown>[]
}

const caseRules: KindRules = {
  insertExtras(orgId, values) {
    const columns = ['case_number']
    const extra: RawBuilder<unknown>[] = [sql`(SELECT CAST(value AS integer) FROM counter)`]
    if (values.fields.status === 'closed') {
      columns.push('closed_at')
      extra.push(sql`now()`)
    }
    if (values.fields.status === 'escalated') {
      columns.push('is_escalated', 'escalated_at')
      extra.push(sql`true`, sql`now()`)
    }
    return { columns, values: extra, with: nextCounterCte(orgId, 'case_number') }
  },
  updateExtras(values, now) {
    const status = values.fields.status
    if (status === undefined) return []
    const at = now.toISOString()
    // closed_at records when the case was closed; reopening clears it.
    const extras = [sql`closed_at = CASE WHEN ${status} = 'closed' THEN COALESCE(old.closed_at, CAST(${at} AS timestamptz)) ELSE NULL END`]
    if (status === 'escalated') extras.push(sql`is_escalated = true`, sql`escalated_at = COALESCE(old.escalated_at, CAST(${at} AS timestamptz))`)
    return extras
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
