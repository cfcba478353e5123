/**
 * Which source field types can fill which target field types, with which transform, and what is
 * lost on the way. The catalogue, the automatic mapping and the validation of user overrides all
 * ask this one table, so a mapping the analysis proposes is always one a user could choose too.
 */
import { kindsByName, type FieldDef, type KindName } from '../../records/contracts.ts'
import type { SourceField, Transform } from '../migration.types.ts'

/** Target fields the importer numbers or fills itself: never a mapping target. */
const NOT_IMPORTABLE: ReadonlySet<string> = new Set(['case.case_number', 'case_comment.author_name'])

export function targetField(kind: KindName, name: string): FieldDef | undefined {
  return kindsByName[kind].fields.find((f) => f.name === name)
}

export function isImportableTarget(kind: KindName, field: FieldDef): boolean {
  return !NOT_IMPORTABLE.has(`${kind}.${field.name}`)
}

/** `Foo__c`, person-account `Foo__pc`, geolocation parts `Foo__Latitude__s`: fields an org added. */
export function isCustomName(name: string): boolean {
  return /__(c|pc|s)$/.test(name)
}

/** Managed-package namespace of a field or object name (`acme` of `acme__Seats__c`), or null. */
export function namespaceOf(name: string): string | null {
  const m = /^([A-Za-z][A-Za-z0-9]*)__[A-Za-z0-9_]+?__(c|pc|s|r|mdt|e|x|b)$/.exec(name)
  return m ? m[1] : null
}

const NUMBER_TYPES = new Set(['int', 'long', 'double', 'currency', 'percent'])
const TEXT_TYPES = new Set(['string', 'textarea', 'phone', 'picklist', 'combobox', 'email', 'url', 'encryptedstring', 'id', 'reference', 'anyType', 'time'])

/** The longest value a source field can hold: its length, or for a picklist its longest value. */
export function sourceTextLength(f: SourceField): number | null {
  // A picklist's `length` is a column size (often 255); its values are what can arrive.
  if (f.type === 'picklist' && f.picklistValues?.length) return Math.max(...f.picklistValues.map((v) => v.value.length))
  return typeof f.length === 'number' && f.length > 0 ? f.length : null
}

export interface Compatibility {
  transform: Transform
  /** Why values may change on the way (rounding, cutting, dropping detail), or null. */
  lossy: string | null
  /** Something worth knowing that is not a loss. */
  note?: string
}

/**
 * How a source field's values fill a target field, or null when they cannot (references and
 * owners are mapped by lookup, not by value, so `ref` and `user` targets never take a value).
 */
export function compatibility(source: SourceField, target: FieldDef): Compatibility | null {
  const t = source.type
  const scale = typeof source.scale === 'number' ? source.scale : null
  switch (target.type) {
    case 'string':
    case 'text': {
      if (t === 'multipicklist') return { transform: 'multipicklist', lossy: 'multi-select picklist: the values become one text ("a;b;c")' }
      if (!TEXT_TYPES.has(t) && !NUMBER_TYPES.has(t) && t !== 'boolean' && t !== 'date' && t !== 'datetime') return null
      const len = sourceTextLength(source)
      const max = target.maxLength
      if (len !== null && max !== undefined && len > max) {
        return { transform: 'text', lossy: `up to ${len} characters in the source, ${max} in the service: longer values are cut (with a warning)` }
      }
      return { transform: 'text', lossy: null }
    }
    case 'email':
      if (t === 'email' || t === 'string') return { transform: 'email', lossy: null, note: t === 'string' ? 'a value that is not an email address is left out and kept in custom_fields' : undefined }
      return null
    case 'url':
      if (t === 'url' || t === 'string') return { transform: 'url', lossy: null }
      return null
    case 'enum':
      if (t === 'picklist' || t === 'combobox' || t === 'string') return { transform: 'enum', lossy: null }
      return null
    case 'decimal':
      if (!NUMBER_TYPES.has(t)) return null
      if (scale !== null && scale > 2) return { transform: 'decimal', lossy: `${scale} decimals in the source, 2 in the service: values are rounded` }
      return { transform: 'decimal', lossy: null }
    case 'integer':
      if (t === 'int' || t === 'long') return { transform: 'integer', lossy: null }
      if (!NUMBER_TYPES.has(t)) return null
      if (scale === 0) return { transform: 'integer', lossy: null }
      return { transform: 'integer', lossy: 'decimal values are rounded to whole numbers' }
    case 'boolean':
      return t === 'boolean' ? { transform: 'boolean', lossy: null } : null
    case 'date':
      if (t === 'date') return { transform: 'date', lossy: null }
      if (t === 'datetime') return { transform: 'date', lossy: 'date and time in the source, date only in the service: the time is dropped' }
      return null
    case 'datetime':
      if (t === 'datetime') return { transform: 'datetime', lossy: null }
      if (t === 'date') return { transform: 'datetime', lossy: null, note: 'a date in the source: imported as midnight UTC of that day' }
      return null
    case 'ref':
    case 'user':
      return null
  }
}

/**
 * The transform that keeps a value in custom_fields as JSON: numbers stay numbers, booleans
 * booleans, multi-select picklists become lists. Null for values with nothing to keep (compound
 * parents, whose parts are read instead, and file content).
 */
export function customTransform(source: SourceField): Transform | null {
  switch (source.type) {
    case 'address':
    case 'location':
    case 'base64':
    case 'complexvalue':
      return null
    case 'boolean':
      return 'boolean'
    case 'int':
    case 'long':
      return 'integer'
    case 'double':
    case 'currency':
    case 'percent':
      return 'decimal'
    case 'date':
      return 'date'
    case 'datetime':
      return 'datetime'
    case 'multipicklist':
      return 'multipicklist'
    default:
      return 'text'
  }
}
