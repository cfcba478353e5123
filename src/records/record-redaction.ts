/**
 * Fields a caller may only read with an extra scope: opportunity amounts need `erp:read`
 * (decisions.md, Scopes). Without it they read as null; everything else is unchanged.
 */
import type { AuthContext } from '../shared/auth-context.ts'
import type { RecordKind } from './record-kind.ts'

const ERP_FIELDS: Partial<Record<RecordKind['name'], string[]>> = { opportunity: ['amount'] }

export function needsRedaction(kind: RecordKind, auth: AuthContext): boolean {
  return ERP_FIELDS[kind.name] !== undefined && !auth.scopes.has('erp:read')
}

export function redactRecord<T extends Record<string, unknown>>(kind: RecordKind, record: T): T {
  for (const f of ERP_FIELDS[kind.name] ?? []) if (f in record) (record as Record<string, unknown>)[f] = null
  return record
}

/** Redacts a record or a page given as JSON text; the common case (nothing to hide) costs nothing. */
export function redactJsonText(kind: RecordKind, auth: AuthContext, json: string, shape: 'record' | 'page'): string {
  if (!needsRedaction(kind, auth)) return json
  const value = JSON.parse(json)
  if (shape === 'page') value.data.forEach((r: Record<string, unknown>) => redactRecord(kind, r))
  else redactRecord(kind, value)
  return JSON.stringify(value)
}
