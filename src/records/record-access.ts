/**
 * What a caller may see of records: the one rule every answer that shows record data goes through,
 * whichever door it leaves by (REST reads and writes, special actions, MCP tools and resources, the
 * webhook delivery log, webhook bodies). docs/api.md, "Scopes", states it:
 *
 * - reading a kind needs its read scopes (every kind crm:read; products, the catalog, erp:read too);
 * - fields marked `erp` (opportunity amounts) read as null without erp:read;
 * - an answer about a record the caller may not read (a write with crm:write alone) shows only
 *   `id`, `created_at` and `updated_at`, so writing never becomes a way to read.
 */
import type { AuthContext, Scope } from '../shared/auth-context.ts'
import { Forbidden } from '../shared/errors.ts'
import type { KindName, RecordKind } from './record-kind.ts'
import { kindsByName } from './kinds/index.ts'

type Caller = Pick<AuthContext, 'scopes'>
type Shown = Record<string, unknown>

/** What is left of a record its caller may not read. */
export const STUB_FIELDS = ['id', 'created_at', 'updated_at'] as const

const erpFieldsByKind = new Map<RecordKind, readonly string[]>(
  Object.values(kindsByName).map((kind) => [kind, kind.fields.filter((f) => f.erp).map((f) => f.name)]),
)

/** Products are the catalog: reading them also needs erp:read (docs/api.md, Scopes). */
export function readScopes(kind: RecordKind): Scope[] {
  return kind.name === 'product' ? ['crm:read', 'erp:read'] : ['crm:read']
}

export function mayRead(kind: RecordKind, caller: Caller): boolean {
  return readScopes(kind).every((s) => caller.scopes.has(s))
}

/** The backstop of every read: a transport that forgot its own scope check still answers 403. */
export function assertMayRead(kind: RecordKind, caller: Caller): void {
  if (mayRead(kind, caller)) return
  const needed = readScopes(kind)
  throw new Forbidden(`Reading ${kind.labelPlural.toLowerCase()} needs the scope${needed.length > 1 ? 's' : ''} ${needed.join(' and ')}.`, 'insufficient_scope')
}

/**
 * Sorting or filtering by a field is reading it: a list ordered or narrowed by amounts would tell
 * them. So a list or count that names an ERP field needs erp:read too (403 otherwise).
 */
export function assertMayUseFields(kind: RecordKind, caller: Caller, names: readonly string[]): void {
  const hidden = hiddenFields(kind, caller).filter((f) => names.includes(f))
  if (hidden.length === 0) return
  throw new Forbidden(`Sorting or filtering by ${hidden.join(', ')} needs the scope erp:read.`, 'insufficient_scope')
}

/** The ERP fields among these names (REST asks for erp:read with a step-up challenge when any). */
export function erpFieldsAmong(kind: RecordKind, names: readonly string[]): string[] {
  return (erpFieldsByKind.get(kind) ?? []).filter((f) => names.includes(f))
}

/** The scope that shows ERP fields. */
const ERP_READ: Scope = 'erp:read'

/** Fields hidden from this caller (null in answers), or none. */
export function hiddenFields(kind: RecordKind, caller: Caller): readonly string[] {
  return caller.scopes.has(ERP_READ) ? [] : (erpFieldsByKind.get(kind) ?? kind.fields.filter((f) => f.erp).map((f) => f.name))
}

/**
 * The scopes a list or count naming these fields needs, for a statement that judges its own token
 * (records/list-with-bearer.ts): the kind's read scopes, and erp:read when an ERP field is named
 * (assertMayUseFields's rule).
 */
export function scopesToUseFields(kind: RecordKind, names: readonly string[]): Scope[] {
  const read = readScopes(kind)
  return erpFieldsAmong(kind, names).length > 0 && !read.includes(ERP_READ) ? [...read, ERP_READ] : read
}

/**
 * hiddenFields's rule as an SQL condition, for a statement that judges its own token: true where the
 * scopes (`scopesSql`, a text[] expression) show ERP fields. `bindScopes` binds the scope list and
 * returns its placeholder.
 */
export function erpShownSql(scopesSql: string, bindScopes: (scopes: Scope[]) => string): string {
  return `${scopesSql} @> CAST(${bindScopes([ERP_READ])} AS text[])`
}

/** True when an answer about a record of this kind must be changed before this caller sees it. */
export function needsShaping(kind: RecordKind, caller: Caller): boolean {
  return !mayRead(kind, caller) || hiddenFields(kind, caller).length > 0
}

/** A record as this caller may see it: whole, with ERP fields nulled, or only its stub. Never mutates. */
export function recordForCaller(kind: RecordKind, caller: Caller, record: Shown): Shown {
  if (!mayRead(kind, caller)) return Object.fromEntries(STUB_FIELDS.filter((f) => f in record).map((f) => [f, record[f]]))
  const hidden = hiddenFields(kind, caller)
  if (hidden.length === 0) return record
  const shown = { ...record }
  for (const f of hidden) if (f in shown) shown[f] = null
  return shown
}

/** The old values of a change as this caller may see them (an unreadable record shows none). */
function previousForCaller(kind: RecordKind, caller: Caller, previous: Shown): Shown {
  if (!mayRead(kind, caller)) return {}
  return recordForCaller(kind, caller, previous)
}

/**
 * A record or a page given as JSON text; the common case (nothing to hide) costs nothing, nor does
 * a page whose statement already read the ERP fields as null (`erpNulled`: the bearer list reads
 * them so for a token without erp:read, record-sql.ts recordJsonText).
 */
export function recordJsonForCaller(kind: RecordKind, caller: Caller, json: string, shape: 'record' | 'page', erpNulled = false): string {
  if (!needsShaping(kind, caller)) return json
  if (erpNulled && mayRead(kind, caller)) return json
  const value = JSON.parse(json)
  if (shape === 'page') value.data = value.data.map((r: Shown) => recordForCaller(kind, caller, r))
  else return JSON.stringify(recordForCaller(kind, caller, value))
  return JSON.stringify(value)
}

/** The record kind an event type (`opportunity.stage_changed`) is about, or null (`webhook.test`). */
export function kindOfEventType(type: unknown): RecordKind | null {
  if (typeof type !== 'string') return null
  const entity = type.slice(0, type.indexOf('.'))
  return Object.hasOwn(kindsByName, entity) ? kindsByName[entity as KindName] : null
}

interface EventLike {
  type?: unknown
  data?: { object?: Shown; previous?: Shown } | unknown
}

/**
 * An event body (webhook envelope) as this caller may see it: its `data.object` and
 * `data.previous` shaped like the record they are. Events of no record kind pass unchanged.
 */
export function eventForCaller<T extends EventLike>(caller: Caller, event: T): T {
  const kind = kindOfEventType(event?.type)
  if (!kind || !needsShaping(kind, caller) || typeof event.data !== 'object' || event.data === null) return event
  const data = event.data as { object?: Shown; previous?: Shown }
  return {
    ...event,
    data: {
      ...data,
      ...(data.object ? { object: recordForCaller(kind, caller, data.object) } : {}),
      ...(data.previous ? { previous: previousForCaller(kind, caller, data.previous) } : {}),
    },
  }
}
