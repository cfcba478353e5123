/**
 * What a record kind declares: its table, its URL segment and its fields. Everything else about a
 * kind (JSON schemas, SQL column lists, list filters, search, the UI's forms) is derived from this.
 */

export type FieldType =
  | 'string' // short single-line text
  | 'text' // long text
  | 'email'
  | 'url'
  | 'enum'
  | 'decimal' // exact, numeric(18,2) in SQL, a string in JSON
  | 'integer'
  | 'boolean'
  | 'date' // YYYY-MM-DD
  | 'datetime' // RFC 3339, UTC, milliseconds
  | 'ref' // uuid of another record of the same organization
  | 'user' // uuid of a member of the same organization

/** How a field is matched by search (RecordField.search). */
export type SearchMode = 'contains' | 'prefix' | 'email'

export interface FieldDef {
  name: string
  type: FieldType
  label: string
  /** Must be present (and not null) on create. */
  required?: boolean
  maxLength?: number
  values?: readonly string[]
  /** Kind name the reference points to (type 'ref'). */
  ref?: KindName
  /** Set by the service only (special actions, sequences); rejected in create and patch bodies. */
  readOnly?: boolean
  /** Usable as `?field=value` on the list endpoint. */
  filter?: boolean
  /**
   * Searched by `?q=` and `GET /search`, case-insensitively (migrations 0015 and 0022 index each way):
   * - `contains`: anywhere in the value (names, subjects: a trigram GIN and a prefix btree);
   * - `prefix`: from the start of the value (domains, codes: a prefix btree only);
   * - `email`: from the start of the address or of its domain (`acme` finds `ada@acme.example`).
   * Only names and subjects get a trigram index: it costs each write about one entry per three
   * characters, and long machine-like values (addresses, domains) cost the most while people rarely
   * look for their middles (docs/api.md, Search).
   */
  search?: SearchMode
  /**
   * Lists can sort by it (`?sort=name`, `?sort=-name`). Each such field has an (org_id, field, id)
   * index and is an argument of its table's tombstone trigger (migration 0011).
   */
  sort?: boolean
  min?: number
  max?: number
  /** Value used on create when the field is absent. */
  default?: string | number | boolean
  /**
   * A standard picklist (text fields whose values are a fixed set: industry, lead source...): the
   * starting options, which an organization's administrators edit (src/records/picklists). Writes
   * through the API must send one of the organization's options; stored values outside them stay.
   */
  picklist?: readonly string[]
  /** ERP data (amounts): reads as null without the erp:read scope (record-access.ts). */
  erp?: boolean
}

export type KindName = 'account' | 'contact' | 'case' | 'case_comment' | 'lead' | 'opportunity' | 'product' | 'activity'

export interface RecordKind {
  name: KindName
  /** Plural used in URLs and table names. */
  table: string
  path: string
  label: string
  labelPlural: string
  /** Field shown as the record's title in lists and the UI. */
  titleFields: readonly string[]
  fields: readonly FieldDef[]
  /** Lists are newest first, except case comments (thread order: oldest first). */
  order: 'newest_first' | 'oldest_first'
}

export const NAME = 255
export const SHORT = 120
export const PHONE = 40
export const LONG_TEXT = 32_000
export const URL_MAX = 2_000
export const EMAIL_MAX = 320

export const ownerField: FieldDef = { name: 'owner_id', type: 'user', label: 'Owner', filter: true }
export const descriptionField: FieldDef = { name: 'description', type: 'text', label: 'Description', maxLength: LONG_TEXT }

export function addressFields(prefix: string, label: string): FieldDef[] {
  return [
    { name: `${prefix}_street`, type: 'string', label: `${label} street`, maxLength: NAME },
    { name: `${prefix}_city`, type: 'string', label: `${label} city`, maxLength: SHORT },
    { name: `${prefix}_state`, type: 'string', label: `${label} state`, maxLength: SHORT },
    { name: `${prefix}_postal_code`, type: 'string', label: `${label} postal code`, maxLength: PHONE },
    { name: `${prefix}_country`, type: 'string', label: `${label} country`, maxLength: SHORT },
  ]
}
