// Owns the simulator's in-code schema model: the few facts per object and field from which the
// full describe bodies (with every real key) are generated, and which the query engine resolves
// names against.

export type FieldType =
  | 'id' | 'boolean' | 'string' | 'textarea' | 'picklist' | 'multipicklist' | 'combobox' | 'reference'
  | 'currency' | 'percent' | 'double' | 'int' | 'long' | 'date' | 'datetime' | 'time' | 'email' | 'phone'
  | 'url' | 'address' | 'location' | 'encryptedstring' | 'base64' | 'anyType'

export interface FieldDef {
  name: string
  type: FieldType
  label?: string
  length?: number
  /** Targets of a lookup; several means polymorphic. */
  referenceTo?: string[]
  relationshipName?: string | null
  /** Name of the child relationship this lookup creates on each parent (e.g. 'Contacts'). */
  childRelationship?: string
  cascadeDelete?: boolean
  picklist?: string[]
  /** Picklist values whose label differs from the API value are not needed: label = value. */
  formula?: string
  nillable?: boolean
  createable?: boolean
  updateable?: boolean
  custom?: boolean
  externalId?: boolean
  unique?: boolean
  precision?: number
  scale?: number
  compoundFieldName?: string
  nameField?: boolean
  autoNumber?: boolean
  htmlFormatted?: boolean
}

export interface RecordTypeDef {
  developerName: string
  name: string
  /** 18-char RecordType id; org-specific on the real platform. */
  id: string
  isDefault?: boolean
}

export interface ObjectDef {
  name: string
  label: string
  labelPlural: string
  keyPrefix: string | null
  custom?: boolean
  fields: FieldDef[]
  recordTypes?: RecordTypeDef[]
  /** Setup / Tooling objects are read-only and not listed as data objects. */
  createable?: boolean
  feedEnabled?: boolean
}
