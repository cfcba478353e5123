/**
 * What `POST /api/v1/imports` asks for, checked before anything is imported: the kind, the mapping
 * (given, or proposed from the header), the deduplication key. Every refusal is a 400 naming the
 * part at fault (docs/imports.md, "Starting an import").
 */
import { kindsByName, recordKinds, type CustomFieldDefinition, type FieldDef, type RecordKind } from '../records/contracts.ts'
import { ValidationFailed, type FieldError } from '../shared/errors.ts'
import { NestedTooDeep, parseJsonStrictly } from '../shared/strict-text.ts'
import { customFieldOfTarget, dedupeKeysOf, importableFields, proposeMapping, type ColumnMapping, type DedupeKey } from './header-mapping.ts'

export { DEDUPE_KEYS, type DedupeKey } from './header-mapping.ts'

/** Kinds a CSV can fill: all but case comments, which belong to a case (their batch is under it). */
export const importKinds: readonly RecordKind[] = recordKinds.filter((k) => k.name !== 'case_comment')

export interface ImportPlan {
  kind: RecordKind
  mapping: ColumnMapping
  dedupeBy: DedupeKey | null
}

function refuse(detail: string, errors: FieldError[]): never {
  throw new ValidationFailed(detail, errors)
}

/** `contacts` (as in the URLs) or `contact`. */
export function importKind(value: string | undefined): RecordKind {
  const names = importKinds.map((k) => k.path).join(', ')
  if (value === undefined || value === '') refuse(`Say which kind of record the file holds: kind is one of ${names}.`, [{ field: 'kind', message: 'is required' }])
  const kind = importKinds.find((k) => k.path === value || k.name === value)
  if (!kind) refuse(`kind must be one of ${names}.`, [{ field: 'kind', message: `must be one of: ${names}` }])
  return kind
}

function parseMapping(text: string): Record<string, unknown> {
  let value: unknown
  try {
    value = parseJsonStrictly(text)
  } catch (err) {
    if (err instanceof NestedTooDeep) refuse(`mapping ${err.message}: send a flat object from column name to field name.`, [{ field: 'mapping', message: err.message }])
    refuse('mapping is not valid JSON: send an object from column name to field name, e.g. {"E-mail": "email", "Notes": null}.', [{ field: 'mapping', message: 'is not valid JSON' }])
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse('mapping must be a JSON object from column name to field name (or null to leave a column out).', [{ field: 'mapping', message: 'must be a JSON object' }])
  return value as Record<string, unknown>
}

/**
 * The plan of an import, or a 400. `fields` are the request's text parts; `header` the file's first
 * row; `defined` the organization's custom field definitions (those of the import's kind are targets).
 */
export function planImport(fields: Record<string, string>, header: readonly string[], defined: readonly CustomFieldDefinition[] = []): ImportPlan {
  const kind = importKind(fields.kind)
  const custom = defined.filter((d) => d.kind === kind.name)
  const writable = new Map<string, FieldDef>(importableFields(kind, custom).map((f) => [f.name, f]))
  const errors: FieldError[] = []
  let mapping: ColumnMapping
  if (fields.mapping !== undefined && fields.mapping.trim() !== '') {
    const given = parseMapping(fields.mapping)
    mapping = Object.fromEntries(header.map((c) => [c, null]))
    for (const [column, field] of Object.entries(given)) {
      if (!header.includes(column)) errors.push({ field: `mapping.${column}`, message: 'is not a column of the file\'s header' })
      else if (field !== null && typeof field !== 'string') errors.push({ field: `mapping.${column}`, message: 'must be a field name or null' })
      else if (typeof field === 'string' && !writable.has(field)) {
        const known = kind.fields.some((f) => f.name === field)
        const customName = customFieldOfTarget(field)
        const message = known
          ? `${field} is set by the service and cannot be imported`
          : customName !== null
            ? `${customName} is not a custom field of ${kind.labelPlural.toLowerCase()} (an administrator defines it under Settings -> Fields)`
            : `${field} is not a field of ${kind.labelPlural.toLowerCase()}`
        errors.push({ field: `mapping.${column}`, message })
      } else mapping[column] = field as string | null
    }
  } else mapping = proposeMapping(kind, header, custom)

  const byField = new Map<string, string>()
  for (const [column, field] of Object.entries(mapping)) {
    if (field === null) continue
    const earlier = byField.get(field)
    if (earlier !== undefined) errors.push({ field: `mapping.${column}`, message: `maps to ${field}, as column "${earlier}" does: a field is filled from one column` })
    else byField.set(field, column)
    if (header.indexOf(column) !== header.lastIndexOf(column)) errors.push({ field: `mapping.${column}`, message: 'names two columns of the header: rename one of them' })
  }
  if (errors.length > 0) refuse(`The mapping cannot be used: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, errors)
  if (byField.size === 0) {
    refuse(`No column of the file maps to a field of ${kind.labelPlural.toLowerCase()}. Name the columns after the fields (${[...writable.keys()].slice(0, 6).join(', ')}, ...) or send a mapping.`, [{ field: 'mapping', message: 'maps no column to a field' }])
  }

  let dedupeBy: DedupeKey | null = null
  const dedupe = fields.dedupe_by?.trim()
  if (dedupe) {
    const allowed = dedupeKeysOf(kind)
    if (!allowed.includes(dedupe as DedupeKey)) refuse(`dedupe_by for ${kind.labelPlural.toLowerCase()} is one of ${allowed.join(', ')}.`, [{ field: 'dedupe_by', message: `must be one of: ${allowed.join(', ')}` }])
    if (!byField.has(dedupe)) refuse(`dedupe_by is ${dedupe}, but no column maps to ${dedupe}.`, [{ field: 'dedupe_by', message: `needs a column mapped to ${dedupe}` }])
    dedupeBy = dedupe as DedupeKey
  } else {
    // Without deduplication every row creates a record: a required field must come from a column.
    const missing = [...writable.values()].filter((f) => f.required && !f.readOnly && f.default === undefined && !byField.has(f.name)).map((f) => f.name)
    if (missing.length > 0) refuse(`Every new ${kind.label.toLowerCase()} needs ${missing.join(', ')}, and no column maps to ${missing.length > 1 ? 'them' : 'it'}.`, missing.map((m) => ({ field: 'mapping', message: `maps no column to ${m}, which is required` })))
  }
  return { kind, mapping, dedupeBy }
}

export function kindOfImport(name: string): RecordKind {
  return kindsByName[name as keyof typeof kindsByName]
}
