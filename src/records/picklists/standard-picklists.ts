/**
 * Standard picklists (docs/custom-fields.md, Standard picklists): an organization's options for the
 * built-in text fields declared with `picklist` in their kind (industry, lead source, case origin...).
 * The organization's list when its administrators saved one (`picklist_options`, migration 0035),
 * the field's starting options otherwise. Writes through the API must send one of them; records
 * already holding another value (imported, or written before the option was removed) keep it.
 */
import { sql } from 'kysely'
import { writeTransaction } from '../../db/write-transaction.ts'
import type { WriteReceipt } from '../../shared/auth-context.ts'
import { NotFound, ValidationFailed, type FieldError } from '../../shared/errors.ts'
import { kindsByName, recordKinds } from '../kinds/index.ts'
import { MAX_PICKLIST_OPTIONS } from '../kinds/standard-picklists.ts'
import type { FieldDef, KindName, RecordKind } from '../record-kind.ts'
import type { Executor } from '../record.repository.ts'
import { MAX_OPTION } from '../custom-fields/definition.ts'

export interface StandardPicklist {
  kind: KindName
  field: string
  label: string
  options: string[]
  /** False while the organization uses the field's starting options. */
  customized: boolean
  updated_at: string | null
}

/** A kind's standard picklist fields. */
export function picklistFields(kind: RecordKind): FieldDef[] {
  return kind.fields.filter((f) => f.picklist)
}

interface Row {
  kind: KindName
  field: string
  options: string
  updated_at: string
}

async function savedRows(db: Executor, orgId: string, kind?: KindName): Promise<Map<string, Row>> {
  const res = await sql<Row>`SELECT kind, field, options::text AS options,
      to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
    FROM picklist_options WHERE org_id = ${orgId} ${kind ? sql`AND kind = ${kind}` : sql``}`.execute(db)
  return new Map(res.rows.map((r) => [`${r.kind}.${r.field}`, r]))
}

function picklistOf(kind: RecordKind, field: FieldDef, row: Row | undefined): StandardPicklist {
  return {
    kind: kind.name,
    field: field.name,
    label: field.label,
    options: row ? (JSON.parse(row.options) as string[]) : [...field.picklist!],
    customized: Boolean(row),
    updated_at: row?.updated_at ?? null,
  }
}

/** The organization's standard picklists, of one kind or all, in the kinds' and fields' order. */
export async function listPicklists(db: Executor, orgId: string, kind?: KindName): Promise<StandardPicklist[]> {
  const rows = await savedRows(db, orgId, kind)
  return (kind ? [kindsByName[kind]] : recordKinds).flatMap((k) => picklistFields(k).map((f) => picklistOf(k, f, rows.get(`${k.name}.${f.name}`))))
}

/** A kind's picklist options by field name: what a write is checked against (one indexed query). */
export async function picklistOptionsOf(db: Executor, orgId: string, kind: RecordKind): Promise<Map<string, readonly string[]>> {
  if (picklistFields(kind).length === 0) return new Map()
  return new Map((await listPicklists(db, orgId, kind.name)).map((p) => [p.field, p.options]))
}

/**
 * `{field, message}` for each standard picklist value sent that is not an option. `null` (clearing)
 * is always allowed; fields not sent are not checked, so a record holding an old value can still
 * be changed in its other fields.
 */
export function picklistErrors(options: ReadonlyMap<string, readonly string[]>, fields: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = []
  for (const [name, allowed] of options) {
    const value = fields[name]
    if (value === undefined || value === null) continue
    if (!allowed.includes(value as string)) errors.push({ field: name, message: `must be one of the organization's options: ${allowed.join(', ')}` })
  }
  return errors
}

/** Options as an administrator sends them: trimmed, non-blank, distinct, without commas (`[in]` filters split on them). */
function checkedOptions(options: readonly string[]): string[] {
  const trimmed = options.map((o) => o.trim())
  const problems: FieldError[] = []
  trimmed.forEach((o, i) => {
    if (o === '') problems.push({ field: `options[${i}]`, message: 'cannot be blank' })
    else if (o.includes(',')) problems.push({ field: `options[${i}]`, message: 'cannot contain a comma (list filters separate values with commas)' })
    else if (o.length > MAX_OPTION) problems.push({ field: `options[${i}]`, message: `must be at most ${MAX_OPTION} characters` })
    else if (trimmed.indexOf(o) !== i) problems.push({ field: `options[${i}]`, message: 'is listed twice' })
  })
  if (trimmed.length === 0) problems.push({ field: 'options', message: 'a picklist needs at least one option' })
  if (trimmed.length > MAX_PICKLIST_OPTIONS) problems.push({ field: 'options', message: `at most ${MAX_PICKLIST_OPTIONS} options` })
  if (problems.length) throw new ValidationFailed(`Invalid options: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}.`, problems)
  return trimmed
}

function fieldOf(kindName: string, fieldName: string): { kind: RecordKind; field: FieldDef } {
  const kind = kindsByName[kindName as KindName]
  const field = kind?.fields.find((f) => f.name === fieldName && f.picklist)
  if (!kind || !field) throw new NotFound('Standard picklist')
  return { kind, field }
}

export async function getPicklist(db: Executor, orgId: string, kindName: string, fieldName: string): Promise<StandardPicklist> {
  const { kind, field } = fieldOf(kindName, fieldName)
  return picklistOf(kind, field, (await savedRows(db, orgId, kind.name)).get(`${kind.name}.${field.name}`))
}

/** Replaces the organization's options of one standard picklist; records keep the values they hold. */
export async function setPicklistOptions(db: Executor, orgId: string, kindName: string, fieldName: string, options: readonly string[], receipt?: WriteReceipt, now = new Date()): Promise<StandardPicklist> {
  const { kind, field } = fieldOf(kindName, fieldName)
  const checked = checkedOptions(options)
  await writeTransaction(db, receipt, (trx) =>
    sql`INSERT INTO picklist_options (org_id, kind, field, options, updated_at)
      VALUES (${orgId}, ${kind.name}, ${field.name}, CAST(${JSON.stringify(checked)} AS jsonb), ${now.toISOString()})
      ON CONFLICT (org_id, kind, field) DO UPDATE SET options = EXCLUDED.options, updated_at = EXCLUDED.updated_at`.execute(trx),
  )
  return getPicklist(db, orgId, kind.name, field.name)
}

/** Back to the field's starting options. */
export async function resetPicklist(db: Executor, orgId: string, kindName: string, fieldName: string, receipt?: WriteReceipt): Promise<StandardPicklist> {
  const { kind, field } = fieldOf(kindName, fieldName)
  await writeTransaction(db, receipt, (trx) => sql`DELETE FROM picklist_options WHERE org_id = ${orgId} AND kind = ${kind.name} AND field = ${field.name}`.execute(trx))
  return getPicklist(db, orgId, kind.name, field.name)
}

/**
 * Values records of the organization hold that are not options (imported data, options removed
 * since), most used first, at most 100: what Settings offers to add. A scan of the organization's
 * records of the kind (the column has no index), run when an administrator opens the picklist.
 */
export async function valuesOutsideOptions(db: Executor, orgId: string, kindName: string, fieldName: string): Promise<{ value: string; records: number }[]> {
  const { kind, field } = fieldOf(kindName, fieldName)
  const { options } = await getPicklist(db, orgId, kind.name, field.name)
  const col = sql.raw(field.name)
  const res = await sql<{ value: string; records: number }>`SELECT ${col} AS value, count(*)::int AS records FROM ${sql.raw(kind.table)}
    WHERE org_id = ${orgId} AND ${col} IS NOT NULL AND NOT (${col} = ANY(CAST(${options} AS text[])))
    GROUP BY ${col} ORDER BY count(*) DESC, ${col} LIMIT 100`.execute(db)
  return res.rows.map((r) => ({ value: r.value, records: Number(r.records) }))
}
