/**
 * Turns database refusals into the API's problems: a reference to a record that is not in this
 * organization (foreign key), a duplicate `src_id` (unique index), a value out of the column's range.
 * Letting the database decide keeps the checks race-free and costs no extra query.
 */
import { Conflict, ProblemError, ValidationFailed } from '../shared/errors.ts'
import type { RecordKind } from './record-kind.ts'
import { withArticle } from './record-labels.ts'

interface PgError {
  code?: string
  constraint?: string
  column?: string
  message?: string
}

export function mapRecordDbError(kind: RecordKind, err: unknown): never {
  const e = err as PgError
  if (e?.code === '23503' && e.constraint) {
    // Composite keys are named "<table>_org_id_<column>_fkey" by PostgreSQL.
    const field = e.constraint.replace(`${kind.table}_org_id_`, '').replace(/_fkey$/, '')
    const f = kind.fields.find((x) => x.name === field)
    const ref = f?.ref ?? 'record'
    const target = f?.type === 'user' ? 'a member of this organization' : `${withArticle(ref)} of this organization`
    throw new ValidationFailed(`${field} does not refer to ${target}.`, [{ field, message: `must be the id of ${target}` }])
  }
  if (e?.code === '23505' && e.constraint?.endsWith('src_id_key')) {
    throw new Conflict(`Another ${kind.label.toLowerCase()} of this organization already has this src_id.`)
  }
  if (e?.code === '23502') {
    // A NOT NULL column given null: the schemas refuse it first; this names the field if one slips by.
    const field = e.column ?? /column "([^"]+)"/.exec(e.message ?? '')?.[1] ?? '(body)'
    throw new ValidationFailed(`${field} cannot be null.`, [{ field, message: 'cannot be null' }])
  }
  if (e?.code?.startsWith('22')) {
    throw new ValidationFailed(`A value is out of range: ${e.message}`)
  }
  if (err instanceof ProblemError) throw err
  throw err
}
