/**
 * The proposed mapping of one source object: one FieldMapping for every field of its describe, so
 * nothing is dropped without a stated reason. The catalogue decides for the standard fields it
 * lists; the rest follow their type: formulas and system fields are ignored, custom fields and
 * unlisted standard fields are kept in custom_fields, compound parents are read through their parts.
 */
import type { FieldDef, KindName } from '../../records/contracts.ts'
import type { FieldMapping, PicklistValueMapping, SourceDescribe, SourceField } from '../migration.types.ts'
import { catalogueFor, type CatalogueEntry } from './catalogue.ts'
import { compatibility, customTransform, isCustomName, namespaceOf, targetField } from './field-types.ts'
import { enumTableFor, lossyValues, matchEnumValue } from './picklist-maps.ts'
import { SYSTEM_FIELDS } from './system-fields.ts'

export interface MapContext {
  /** Source objects the migration can import (supported objects present in the org). */
  inScope: ReadonlySet<string>
  /** Target kind of the object, or null when it has none (its fields are then all ignored). */
  kind: KindName | null
}

/** What an owner that is not a user is, in the words of the source's setup pages. */
const OWNER_KINDS: Readonly<Record<string, string>> = { Group: 'queue', Calendar: 'public calendar' }

/** How many names a note lists before "and N more". */
const LISTED = 5

export function listNames(names: readonly string[], max = LISTED): string {
  if (names.length <= max) return names.join(', ')
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`
}

export function mapObjectFields(describe: SourceDescribe, ctx: MapContext): FieldMapping[] {
  const parts = new Map<string, string[]>()
  for (const f of describe.fields) {
    if (f.compoundFieldName && f.compoundFieldName !== f.name) {
      const list = parts.get(f.compoundFieldName) ?? []
      list.push(f.name)
      parts.set(f.compoundFieldName, list)
    }
  }
  const entries = ctx.kind ? catalogueFor(describe.name)?.fields : undefined
  return describe.fields.map((f) => {
    const m = mapField(describe, f, ctx, entries?.[f.name], parts)
    const ns = namespaceOf(f.name)
    if (ns) m.notes.push(`managed-package field (namespace ${ns})`)
    return m
  })
}

/** A FieldMapping with the source field's facts and no decision yet (ignored, unmapped). */
export function baseMapping(f: SourceField): FieldMapping {
  const m: FieldMapping = {
    source: f.name,
    label: f.label,
    source_type: f.type,
    custom: f.custom === true || isCustomName(f.name),
    calculated: f.calculated === true,
    required: f.nillable === false && f.createable === true && f.defaultedOnCreate !== true,
    action: 'ignore',
    target: null,
    transform: null,
    status: 'unmapped',
    notes: [],
  }
  if (f.type === 'reference') m.reference_to = [...(f.referenceTo ?? [])]
  if (typeof f.length === 'number' && f.length > 0) m.source_length = f.length
  if (typeof f.scale === 'number' && NUMERIC.has(f.type)) m.source_scale = f.scale
  if (f.picklistValues?.length) m.source_values = f.picklistValues.map((v) => v.value)
  return m
}

const NUMERIC = new Set(['double', 'currency', 'percent'])

/** The facts of a source field a FieldMapping keeps, as a describe field again (for re-mapping in Configure). */
export function sourceFieldOf(m: FieldMapping): SourceField {
  return {
    name: m.source,
    label: m.label,
    type: m.source_type,
    length: m.source_length ?? undefined,
    scale: m.source_scale ?? undefined,
    custom: m.custom,
    calculated: m.calculated,
    createable: true,
    nillable: !m.required,
    defaultedOnCreate: false,
    referenceTo: m.reference_to,
    picklistValues: m.source_values?.map((value) => ({ value, label: value, active: true, defaultValue: false })),
  }
}

function ignore(m: FieldMapping, note: string): FieldMapping {
  m.notes.push(note)
  return m
}

/** Keeps the value in custom_fields under the source field's name, as JSON of its own type. */
export function keepInCustomFields(m: FieldMapping, f: SourceField, note: string): FieldMapping {
  const transform = customTransform(f)
  if (transform === null) return ignore(m, `${f.type} value: nothing to keep`)
  m.action = 'custom_field'
  m.transform = transform
  m.notes.push(note)
  if (f.type === 'multipicklist') m.notes.push('multi-select picklist: kept as a list of its values')
  return m
}

function mapField(
  describe: SourceDescribe,
  f: SourceField,
  ctx: MapContext,
  entry: CatalogueEntry | undefined,
  parts: ReadonlyMap<string, string[]>,
): FieldMapping {
  const m = baseMapping(f)
  if (f.calculated) {
    return ignore(m, f.calculatedFormula ? 'formula field: computed by the source, not imported' : 'formula or roll-up summary field: computed by the source, not imported')
  }
  if (ctx.kind === null) return ignore(m, `${describe.name} has no target in the service: not imported`)
  const kind = ctx.kind
  if (entry) return fromCatalogue(m, f, kind, entry, ctx)
  if (f.name === 'OwnerId' && targetField(kind, 'owner_id')) return owner(m, f, 'owner_id', undefined)
  const system = SYSTEM_FIELDS.get(f.name)
  if (system) return ignore(m, system)
  const own = parts.get(f.name)
  if (f.type === 'address' || f.type === 'location' || (own && !f.createable)) {
    return ignore(m, `compound field: its parts (${listNames(own ?? [])}) are read one by one instead`)
  }
  if (f.type === 'base64') return ignore(m, 'file content: not imported')
  if (!f.createable && !m.custom && !f.autoNumber) return ignore(m, 'read-only, set by the source platform: not imported')
  if (f.type === 'reference') return keepReference(m, f, ctx)
  if (f.compoundFieldName && f.compoundFieldName !== f.name) return keepInCustomFields(m, f, `part of ${f.compoundFieldName}, which has no field in the service: kept in custom_fields`)
  return keepInCustomFields(m, f, m.custom ? 'custom field: kept in custom_fields' : `no ${kind.replace('_', ' ')} field for it in the service: kept in custom_fields`)
}

function keepReference(m: FieldMapping, f: SourceField, ctx: MapContext): FieldMapping {
  const to = f.referenceTo ?? []
  const inScope = to.filter((o) => ctx.inScope.has(o))
  const note =
    inScope.length > 0
      ? `lookup to ${listNames(to)}: the service has no field for this link, so the source id is kept in custom_fields`
      : `lookup to ${listNames(to)}, which is not imported: the source id is kept in custom_fields`
  return keepInCustomFields(m, f, note)
}

function owner(m: FieldMapping, f: SourceField, target: string, note: string | undefined): FieldMapping {
  m.action = 'owner'
  m.target = target
  m.status = 'exact'
  m.notes.push(note ?? 'matched to a member by email')
  const others = (f.referenceTo ?? []).filter((o) => o !== 'User').map((o) => OWNER_KINDS[o] ?? o)
  if (others.length > 0) m.notes.push(`records owned by a ${others.join(' or ')} get no owner; the owner's id is kept in custom_fields`)
  return m
}

function fromCatalogue(m: FieldMapping, f: SourceField, kind: KindName, entry: CatalogueEntry, ctx: MapContext): FieldMapping {
  switch (entry.action) {
    case 'ignore':
      return ignore(m, entry.note)
    case 'custom_field':
      if (entry.record_type) {
        m.action = 'custom_field'
        m.transform = 'record_type'
        m.notes.push(entry.note)
        return m
      }
      return keepInCustomFields(m, f, entry.note)
    case 'owner':
      return owner(m, f, entry.target, entry.note)
    case 'reference':
      // A comment without its case cannot exist: required whatever the describe says.
      if (entry.required) m.required = true
      return reference(m, f, entry.targets, entry.note, ctx)
    case 'field': {
      const def = targetField(kind, entry.target)
      if (!def) throw new Error(`catalogue: ${kind} has no field ${entry.target}`)
      return valueField(m, f, kind, def, entry.note, entry.derived)
    }
  }
}

function reference(m: FieldMapping, f: SourceField, targets: Readonly<Record<string, string>>, note: string | undefined, ctx: MapContext): FieldMapping {
  const to = f.referenceTo ?? []
  const chosen: Record<string, string> = {}
  for (const [object, field] of Object.entries(targets)) if (to.includes(object) && ctx.inScope.has(object)) chosen[object] = field
  if (Object.keys(chosen).length === 0) return keepReference(m, f, ctx)
  m.action = 'reference'
  m.targets = chosen
  m.status = 'exact'
  if (note) m.notes.push(note)
  const others = to.filter((o) => !(o in chosen))
  if (others.length > 0) {
    m.status = 'lossy'
    const what = others.length === 1 ? `${others[0]} is` : `${others.length} other object types (${listNames(others)}) are`
    m.notes.push(`links to ${Object.keys(chosen).join(' and ')} are kept; ${what} not imported, so such links are kept as source ids in custom_fields`)
  }
  return m
}

/** A value mapped into a target field; falls back to custom_fields when the types do not fit. */
export function valueField(
  m: FieldMapping,
  f: SourceField,
  kind: KindName,
  def: FieldDef,
  note: string | undefined,
  derived?: Array<{ target: string; rule: 'domain' }>,
): FieldMapping {
  const c = compatibility(f, def)
  if (!c) return keepInCustomFields(m, f, `a ${f.type} cannot fill ${def.name} (${def.type}): kept in custom_fields`)
  m.action = 'field'
  m.target = def.name
  m.transform = c.transform
  m.status = c.lossy ? 'lossy' : 'exact'
  if (note) m.notes.push(note)
  if (c.note) m.notes.push(c.note)
  if (c.lossy) m.notes.push(c.lossy)
  if (derived?.length) m.derived = derived.filter((d) => targetField(kind, d.target))
  if (c.transform === 'enum') enumValues(m, f, kind, def)
  return m
}

function enumValues(m: FieldMapping, f: SourceField, kind: KindName, def: FieldDef): void {
  const table = enumTableFor(kind, def)
  const targets = def.values ?? []
  const values: PicklistValueMapping[] = (f.picklistValues ?? []).map((v) => ({ source: v.value, target: matchEnumValue(table, targets, v.value) }))
  m.picklist = { values, fallback: table.fallback }
  const lossy = lossyValues(values)
  if (lossy.size === 0) return
  m.status = 'lossy'
  const unmatched = values.filter((v) => v.target === null).map((v) => v.source)
  if (unmatched.length > 0) {
    m.notes.push(
      `${unmatched.length} picklist value${unmatched.length > 1 ? 's have' : ' has'} no match (${listNames(unmatched, 10)}): ${def.name} becomes ${table.fallback} and the original value is kept in custom_fields`,
    )
  }
  const shared = new Map<string, string[]>()
  for (const v of values) if (v.target !== null && lossy.has(v.source)) shared.set(v.target, [...(shared.get(v.target) ?? []), v.source])
  for (const [target, sources] of shared) {
    m.notes.push(`${sources.join(', ')} all become ${target}: the original value is kept in custom_fields`)
  }
  if (table.note && shared.size > 0) m.notes.push(table.note)
}
