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

/**
 * What other tools and people commonly title a field's column, by field name: a spreadsheet kept by
 * hand says "Job Title" and "Zip", another CRM's export "Company Name" and "Mobile". Used after the
 * field's API name and label, before the source platform's names; only for fields the kind has.
 * Address fields are given by their last part (`city`), so "Billing Zip" and "Mailing Zip" find
 * their prefix's field.
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  first_name: ['given name', 'forename', 'first'],
  last_name: ['surname', 'family name', 'last'],
  title: ['job title', 'position', 'role'],
  email: ['e-mail', 'email address', 'e-mail address', 'mail'],
  phone: ['phone number', 'telephone', 'tel', 'work phone', 'business phone', 'office phone'],
  mobile_phone: ['mobile', 'cell', 'cell phone', 'mobile number', 'cellphone'],
  company: ['company name', 'organization', 'organisation', 'account name'],
  website: ['web site', 'url', 'homepage', 'web'],
  name: ['full name'],
  subject: ['title', 'summary'],
  close_date: ['expected close date', 'close'],
  amount: ['value', 'deal value'],
  stage: ['deal stage', 'sales stage'],
  owner_id: ['owner email', 'assigned to', 'owner name'],
  annual_revenue: ['revenue'],
  employee_count: ['number of employees', 'headcount', 'company size'],
  description: ['notes', 'note', 'comments'],
  src_id: ['external id', 'source id', 'record id'],
}
const ADDRESS_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  street: ['address', 'street address', 'address line 1'],
  postal_code: ['zip', 'zip code', 'postcode', 'post code'],
  state: ['province', 'region', 'county'],
}

/** Synonym spellings -> field, for the kind's importable fields (SYNONYMS, ADDRESS_SYNONYMS). */
function synonymNames(kind: RecordKind): Map<string, string> {
  const names = new Map<string, string>()
  const fields = importableFields(kind)
  const set = (spelling: string, field: string) => {
    if (!names.has(headerKey(spelling))) names.set(headerKey(spelling), field)
  }
  for (const f of fields) for (const spelling of SYNONYMS[f.name] ?? []) set(spelling, f.name)
  // "Billing Zip" -> billing_postal_code; a plain "Zip" -> the kind's first address.
  for (const f of fields) {
    for (const [part, spellings] of Object.entries(ADDRESS_SYNONYMS)) {
      if (!f.name.endsWith(`_${part}`)) continue
      const prefix = f.label.slice(0, f.label.length - part.replace('_', ' ').length).trim()
      for (const spelling of spellings) {
        set(`${prefix} ${spelling}`, f.name)
        set(spelling, f.name)
      }
    }
  }
  return names
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
 * Every spelling a header may use for each field, strongest first: name, label, common synonym
 * (SYNONYMS), source name. A
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
  return [byName, byLabel, synonymNames(kind), catalogueNames(kind.name)]
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

/**
 * The proposed mapping with the person's last one of the kind laid over it (docs/imports.md,
 * "Remembered mappings"): a column the last import also had gets the field it went to then (or is
 * left out again), as long as that field can still be filled; the other columns keep the proposal,
 * unless the remembered columns took their field.
 */
export function withRememberedMapping(proposed: ColumnMapping, remembered: ColumnMapping | null, importable: readonly FieldDef[]): ColumnMapping {
  if (!remembered) return proposed
  const fields = new Set(importable.map((f) => f.name))
  const mapping: ColumnMapping = {}
  const taken = new Set<string>()
  for (const column of Object.keys(proposed)) {
    if (!Object.hasOwn(remembered, column)) continue
    const field = remembered[column]
    if (field === null || (fields.has(field) && !taken.has(field))) {
      mapping[column] = field
      if (field !== null) taken.add(field)
    }
  }
  for (const [column, field] of Object.entries(proposed)) if (!(column in mapping)) mapping[column] = field !== null && taken.has(field) ? null : field
  // In the file's column order.
  return Object.fromEntries(Object.keys(proposed).map((c) => [c, mapping[c]]))
}
