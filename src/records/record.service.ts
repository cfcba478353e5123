/**
 * Create, read, change and delete records of any kind, inside the caller's transaction. Kind-specific
 * rules (case numbers, closing a case, a lead's `converted` status) are hooks declared per kind in
 * record-rules.ts; special actions live with their kind (cases/, leads/).
 */
import type { AuthContext } from '../shared/auth-context.ts'
import { ProblemError, ValidationFailed } from '../shared/errors.ts'
import { uuidv7 } from '../shared/ids.ts'
import type { FieldDef, RecordKind } from './record-kind.ts'
import { mapRecordDbError } from './record-errors.ts'
import { assertMayRead, assertMayUseFields, recordJsonForCaller } from './record-access.ts'
import { fieldsUsed } from './record-query.ts'
import { listTombstones, type TombstonePage } from './record-tombstones.ts'
import type { Deletion } from './record-deletion.ts'
import {
  countRecords,
  deleteRecord,
  findRecordJson,
  insertRecord,
  listRecordsPage,
  pageFromEnvelope,
  updateRecord,
  type Executor,
  type ListOptions,
  type PageEnvelopeRow,
  type PageText,
  type RowValues,
} from './record.repository.ts'
import { rulesFor } from './record-rules.ts'
import { nextCaseNumberCte } from './cases/case-numbers.ts'
import { sql } from 'kysely'
import { customFieldErrors, settledCustomFields } from './custom-fields/custom-field-values.ts'
import { selectDefinitions } from './custom-fields/definitions.repository.ts'
import { picklistErrors, picklistFields, picklistOptionsOf } from './picklists/standard-picklists.ts'
import { resolveCustomFilters } from './custom-fields/custom-filters.ts'
import { BLANK_MESSAGE, settleRequiredText } from '../shared/required-text.ts'
import { withCallerResolved } from './owner-filter.ts'

export const MAX_CUSTOM_FIELDS_BYTES = 64 * 1024
const DECIMAL_RE = /^-?\d{1,16}(\.\d{1,2})?$/

/** A sorted list's cursor that names no record, live or remembered (a tombstone expires after 30 days). */
class UnknownCursor extends ProblemError {
  constructor() {
    super(400, 'invalid_cursor', 'Invalid cursor', 'cursor names no record of this list: it was never one, or was deleted too long ago to be placed.', [
      { field: 'cursor', message: 'names no record of this list' },
    ])
  }
}

export interface RecordChange {
  kind: RecordKind
  id: string
  after: Record<string, unknown> | null
  before: Record<string, unknown> | null
  /**
   * `after` as the database wrote it (its JSON text, as lists serve it), when the writer has it: a
   * bulk create's event body is this text spliced into its envelope, and `after` is parsed only if
   * someone reads it (an import reads none of its 1,000 records a page).
   */
  afterText?: string
  /** What the action's event carries beside the record: a lead conversion's `conversion` (leads/lead-convert.ts). */
  detail?: Record<string, unknown>
}

function normalizeDecimal(f: FieldDef, value: unknown): unknown {
  if (typeof value !== 'number') return value
  const text = String(value)
  if (!DECIMAL_RE.test(text)) {
    throw new ValidationFailed(`${f.name} must have at most 16 integer and 2 fraction digits.`, [
      { field: f.name, message: 'must have at most 16 integer and 2 fraction digits' },
    ])
  }
  return text
}

/** 400 naming each `custom_fields.<name>` that breaks its definition (custom-fields/custom-field-values.ts); required text is then stored trimmed. */
async function checkCustomFields(trx: Executor, auth: AuthContext, kind: RecordKind, values: RowValues, mode: 'create' | 'update'): Promise<void> {
  if (mode === 'update' && values.customFields === undefined) return
  const defs = await selectDefinitions(trx, auth.orgId, kind.name)
  const errors = customFieldErrors(defs, values.customFields, mode)
  if (errors.length > 0) throw new ValidationFailed(`Invalid custom fields: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, errors)
  values.customFields = settledCustomFields(defs, values.customFields)
}

/** 400 naming each standard picklist value sent that is not one of the organization's options (picklists/standard-picklists.ts). */
async function checkPicklists(trx: Executor, auth: AuthContext, kind: RecordKind, values: RowValues): Promise<void> {
  if (!picklistFields(kind).some((f) => values.fields[f.name] != null)) return
  const errors = picklistErrors(await picklistOptionsOf(trx, auth.orgId, kind), values.fields)
  if (errors.length > 0) throw new ValidationFailed(`Not an option: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, errors)
}

/** Per kind: its required text fields, which every write settles here (shared/required-text.ts). */
const requiredText = new Map<RecordKind, string[]>()
function requiredTextOf(kind: RecordKind): string[] {
  let names = requiredText.get(kind)
  if (!names) requiredText.set(kind, (names = kind.fields.filter((f) => f.required && !f.readOnly && (f.type === 'string' || f.type === 'text')).map((f) => f.name)))
  return names
}

/**
 * Splits a validated body into columns, src_id and custom_fields. Every door that writes a record
 * passes here (single writes, batches, upserts, CSV imports, lead conversion, MCP tools), so this is
 * where required text is refused when blank (the schemas' `\S` misses invisible characters) and
 * stored without its surrounding whitespace.
 */
export function toRowValues(kind: RecordKind, body: Record<string, unknown>): RowValues {
  const settled = settleRequiredText(requiredTextOf(kind), body)
  if (settled.blank.length > 0) {
    throw new ValidationFailed(`${settled.blank.join(', ')} ${BLANK_MESSAGE}: a required text field needs at least one visible character.`, settled.blank.map((field) => ({ field, message: BLANK_MESSAGE })))
  }
  body = settled.values
  const fields: Record<string, unknown> = {}
  for (const f of kind.fields) {
    if (!(f.name in body) || f.readOnly) continue
    fields[f.name] = f.type === 'decimal' ? normalizeDecimal(f, body[f.name]) : body[f.name]
  }
  const values: RowValues = { fields }
  if ('src_id' in body) values.srcId = body.src_id as string | null
  if ('custom_fields' in body) {
    const cf = body.custom_fields as Record<string, unknown>
    if (Buffer.byteLength(JSON.stringify(cf)) > MAX_CUSTOM_FIELDS_BYTES) {
      throw new ValidationFailed(`custom_fields must be at most ${MAX_CUSTOM_FIELDS_BYTES} bytes of JSON.`, [
        { field: 'custom_fields', message: `must be at most ${MAX_CUSTOM_FIELDS_BYTES} bytes` },
      ])
    }
    values.customFields = cf
  }
  return values
}

/**
 * A page as this caller may see it (record-access.ts); 403 when the caller may not read the kind or
 * a field it sorts or filters by; 400 invalid_cursor when a sorted list cannot place its cursor.
 */
export async function listRecords(executor: Executor, auth: AuthContext, kind: RecordKind, opts: ListOptions): Promise<PageText> {
  assertMayRead(kind, auth)
  assertMayUseFields(kind, auth, fieldsUsed(opts))
  return shownPage(kind, auth, await listRecordsPage(executor, auth.orgId, kind, await resolveCustomFilters(executor, auth.orgId, kind, withCallerResolved(opts, auth))))
}

/** The same answer from the envelope of a statement that also checked the caller (list-with-bearer.ts). */
export async function pageForCaller(executor: Executor, auth: AuthContext, kind: RecordKind, opts: ListOptions, row: PageEnvelopeRow, erpNulled: boolean): Promise<PageText> {
  assertMayRead(kind, auth)
  assertMayUseFields(kind, auth, fieldsUsed(opts))
  return shownPage(kind, auth, await pageFromEnvelope(executor, auth.orgId, kind, opts, row), erpNulled)
}

function shownPage(kind: RecordKind, auth: AuthContext, { cursorKnown, ...page }: PageText & { cursorKnown: boolean }, erpNulled = false): PageText {
  if (!cursorKnown) throw new UnknownCursor()
  return { ...page, json: recordJsonForCaller(kind, auth, page.json, 'page', erpNulled) }
}

/** How many records a list with these filters holds, with the list's scope rules. */
export async function countListed(executor: Executor, auth: AuthContext, kind: RecordKind, opts: Omit<ListOptions, 'limit'>): Promise<number> {
  assertMayRead(kind, auth)
  assertMayUseFields(kind, auth, fieldsUsed(opts))
  return countRecords(executor, auth.orgId, kind, await resolveCustomFilters(executor, auth.orgId, kind, withCallerResolved(opts, auth)))
}

/** Deleted records of a kind (id, deleted_at) for sync clients, with the list's scope rule. */
export async function listDeleted(executor: Executor, auth: AuthContext, kind: RecordKind, opts: { limit: number; cursor?: string; deletedSince?: string }): Promise<TombstonePage> {
  assertMayRead(kind, auth)
  const page = await listTombstones(executor, auth.orgId, kind, opts)
  if (!page) throw new UnknownCursor()
  return page
}

/** One record as JSON text as this caller may see it, or null when there is none in the organization. */
export async function getRecord(executor: Executor, auth: AuthContext, kind: RecordKind, id: string): Promise<string | null> {
  assertMayRead(kind, auth)
  const json = await findRecordJson(executor, auth.orgId, kind, id)
  return json === null ? null : recordJsonForCaller(kind, auth, json, 'record')
}

export async function createRecord(
  trx: Executor,
  auth: AuthContext,
  kind: RecordKind,
  body: Record<string, unknown>,
  options: { createdAt?: Date; fixed?: Record<string, unknown>; skipRequiredCustomFields?: boolean; copiedValues?: boolean } = {},
): Promise<RecordChange> {
  const createdAt = options.createdAt ?? new Date()
  const id = uuidv7(createdAt)
  const values = toRowValues(kind, body)
  await checkCustomFields(trx, auth, kind, values, options.skipRequiredCustomFields ? 'update' : 'create')
  // Values copied from another record (a lead's conversion) are kept as they are, as stored values are.
  if (!options.copiedValues) await checkPicklists(trx, auth, kind, values)
  Object.assign(values.fields, options.fixed ?? {})
  const rules = rulesFor(kind)
  rules.beforeCreate?.(values, auth)
  Object.assign(values.fields, rules.insertedValues?.(values.fields, createdAt))
  try {
    const numbered = rules.numbered ? { columns: ['case_number'], values: [sql`(SELECT CAST(value AS integer) FROM counter)`], with: nextCaseNumberCte(auth.orgId) } : undefined
    const json = await insertRecord(trx, auth.orgId, kind, id, createdAt, values, numbered)
    return { kind, id, after: JSON.parse(json), before: null }
  } catch (err) {
    mapRecordDbError(kind, err)
  }
}

/** Null when the record does not exist in this organization. */
export async function patchRecord(
  trx: Executor,
  auth: AuthContext,
  kind: RecordKind,
  id: string,
  body: Record<string, unknown>,
): Promise<RecordChange | null> {
  const values = toRowValues(kind, body)
  await checkCustomFields(trx, auth, kind, values, 'update')
  await checkPicklists(trx, auth, kind, values)
  const rules = rulesFor(kind)
  rules.beforeUpdate?.(values, auth)
  try {
    const now = new Date()
    const status = values.fields.status
    const res = await updateRecord(trx, auth.orgId, kind, id, values, now, status === undefined ? [] : rules.statusSets?.(sql`${status}`, now))
    if (!res) return null
    return { kind, id, after: JSON.parse(res.after), before: JSON.parse(res.before) }
  } catch (err) {
    mapRecordDbError(kind, err)
  }
}

/** Deletes a record; null when there was none. The deletion names the records it unlinked as well (record-deletion.ts). */
export async function removeRecord(trx: Executor, auth: AuthContext, kind: RecordKind, id: string): Promise<Deletion | null> {
  const deletion = await deleteRecord(trx, auth.orgId, kind, id)
  return deletion.deleted.length > 0 ? deletion : null
}

/** The fields whose values differ, with their old values (the `previous` of webhook payloads). */
export function changedFields(change: RecordChange): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (!change.before || !change.after) return out
  for (const [k, v] of Object.entries(change.before)) {
    if (k === 'updated_at') continue
    if (JSON.stringify(v) !== JSON.stringify(change.after[k])) out[k] = v
  }
  return out
}
