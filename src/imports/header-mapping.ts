/**
 * Which field each column of a CSV file fills, proposed from its header: a column named like a
 * field (`email`, `Email`, `First Name`, `first_name`), like its label (`Annual revenue`), or like
 * the source platform's field that the migration maps to it (`BillingCity`, `AccountId`,
 * `NumberOfEmployees`: the migration's catalogue, so an export from the source platform maps as
 * the migration would). Pure, with no server code behind it: the web app proposes the same
 * mapping before a person reviews it, and the import uses it when the request gives none.
 */
import { CATALOGUE } from '../migration/contracts.ts'
import type { CustomFieldDefinition, FieldDef, KindName, RecordKind } from '../records/contracts.ts'

/** What `dedupe_by` may name: a matching record is updated instead of a new one created. */
export const DEDUPE_KEYS = ['email', 'domain', 'name', 'src_id'] as const
export type DedupeKey = (typeof DEDUPE_KEYS)[number]

/** The dedupe keys a kind has a field for. */
export function dedupeKeysOf(kind: RecordKind): DedupeKey[] {
  return DEDUPE_KEYS.filter((k) => k === 'src_id' || kind.fields.some((f) => f.name === k))
}

/** Column -> field name, or null when the column is not imported. */
export type ColumnMapping = Record<string, string | null>

/** `First Name`, `first_name`, `FirstName` and `first-name` all read `firstname`. */
export function headerKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')
}

/** What a custom field needs to be a column's target. */
export type ImportableCustomField = Pick<CustomFieldDefinition, 'name' | 'label' | 'type' | 'options' | 'required'>

/** A column filling custom field `x` targets `custom_fields.x`, as the export titles its column. */
export const CUSTOM_FIELD_TARGET = 'custom_fields.'

/** The custom field a target names, or null for a built-in field. */
export function customFieldOfTarget(target: string): string | null {
  return target.startsWith(CUSTOM_FIELD_TARGET) ? target.slice(CUSTOM_FIELD_TARGET.length) : null
}

/**
 * A custom field as a column's target, read by the cell rules of the built-in type it resembles
 * (cell-values.ts): numbers as decimals, picklists as enumerations of their options.
 */
function customTarget(def: ImportableCustomField): FieldDef {
  const type = ({ text: 'string', number: 'decimal', date: 'date', boolean: 'boolean', picklist: 'enum' } as const)[def.type]
  return { name: `${CUSTOM_FIELD_TARGET}${def.name}`, type, label: def.label, required: def.required, ...(def.type === 'picklist' ? { values: def.options } : {}) }
}

/** Fields a CSV column may fill: the kind's writable fields, `src_id`, and the organization's custom fields of the kind. */
export function importableFields(kind: RecordKind, custom: readonly ImportableCustomField[] = []): FieldDef[] {
  return [...kind.fields.filter((f) => !f.readOnly), { name: 'src_id', type: 'string', label: 'Source id', maxLength: 255 }, ...custom.map(customTarget)]
}

/** Source-platform field names the migration's catalogue sends to each field of the kind. */
function catalogueNames(kind: KindName): Map<string, string> {
  const names = new Map<string, string>()
  for (const object of Object.values(CATALOGUE)) {
    if (object.target !== kind) continue
    for (const [source, entry] of Object.entries(object.fields)) {
      const targets = entry.action === 'field' || entry.action === 'owner' ? [entry.target] : entry.action === 'reference' ? Object.values(entry.targets) : []
      for (const target of targets) if (!names.has(headerKey(source))) names.set(headerKey(source), target)
    }
  }
  return names
}

/**
 * Every spelling a header may use for each field, strongest first: name, label, source name. A
 * custom field is named `custom_fields.x` (the export's title) or `x`, unless a built-in field has
 * that name or label.
 */
function spellings(kind: RecordKind, custom: readonly ImportableCustomField[]): Array<Map<string, string>> {
  const fields = importableFields(kind, custom)
  const byName = new Map(fields.map((f) => [headerKey(f.name), f.name]))
  for (const def of custom) if (!byName.has(headerKey(def.name))) byName.set(headerKey(def.name), `${CUSTOM_FIELD_TARGET}${def.name}`)
  const byLabel = new Map<string, string>()
  for (const f of importableFields(kind)) {
    byLabel.set(headerKey(f.label), f.name)
    // A reference column is often titled by what it names: "Account name", "Account id".
    if (f.type === 'ref' || f.type === 'user') for (const extra of ['name', 'id', 'email']) byLabel.set(headerKey(`${f.label} ${extra}`), f.name)
  }
  byLabel.set(headerKey('external id'), 'src_id')
  // Built-in labels win over custom ones: set the custom labels only where nothing else is.
  for (const def of custom) if (!byLabel.has(headerKey(def.label)) && !byName.has(headerKey(def.label))) byLabel.set(headerKey(def.label), `${CUSTOM_FIELD_TARGET}${def.name}`)
  return [byName, byLabel, catalogueNames(kind.name)]
}

/** The proposed mapping of a header: each field filled by one column at most, the first that names it. */
export function proposeMapping(kind: RecordKind, columns: readonly string[], custom: readonly ImportableCustomField[] = []): ColumnMapping {
  const tables = spellings(kind, custom)
  const taken = new Set<string>()
  const mapping: ColumnMapping = {}
  for (const column of columns) {
    const key = headerKey(column)
    let field: string | null = null
    for (const table of tables) {
      const f = table.get(key)
      if (f && !taken.has(f)) {
        field = f
        break
      }
    }
    if (field) taken.add(field)
    if (!(column in mapping)) mapping[column] = field
  }
  return mapping
}
