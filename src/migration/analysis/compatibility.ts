/**
 * The compatibility score of one object (source-platform.md §3.4), with its reasons in plain words.
 *
 * - `auto`: every createable, non-formula field lands in a target field of a fitting type, nothing
 *   is lost on the way, and every lookup points at an object that is imported.
 * - `partial`: the records import, but some fields do not make it as fields: formulas, custom
 *   fields kept in custom_fields (standard fields the mapping carries there by design do not
 *   count: nothing of them is lost), lossy values (picklist gaps, multi-select picklists, cut text), record types,
 *   lookups to objects that are not imported (kept as ids), person accounts.
 * - `manual_review`: somebody has to decide before anything moves: custom objects and other
 *   objects with no target, managed-package objects, a required lookup to an object that is not
 *   imported, more than MAX_UNMAPPED_REQUIRED required fields without a target, an unreadable describe.
 *
 * An optional polymorphic lookup to types that are not imported (Task/Event WhatId -> Campaign) is
 * `partial`, not `manual_review`: the record imports, its other links are kept, and the id of the
 * lost link stays in custom_fields. Only a *required* lookup of that kind needs a person's decision.
 */
import type { Compatibility, FieldMapping, SupportLevel } from '../migration.types.ts'
import { catalogueFor } from '../mapping/catalogue.ts'
import { isSystemField } from '../mapping/system-fields.ts'
import { listNames } from '../mapping/auto-map.ts'

/** More required source fields than this without a target field make an object manual_review. */
export const MAX_UNMAPPED_REQUIRED = 3

export interface CompatibilityInput {
  name: string
  custom: boolean
  namespace: string | null
  support: SupportLevel
  fields: readonly FieldMapping[]
  /** Why its describe or count could not be read, or null. */
  unreadable: string | null
  /** Developer names of the object's record types besides Master. */
  recordTypes: readonly string[]
  personAccounts: boolean
}

export interface CompatibilityResult {
  compatibility: Compatibility
  reasons: string[]
}

/**
 * Fields the mapping leaves out on purpose (system fields, catalogue decisions): no reason to
 * review. The other ignored fields of a supported object are read-only ones (not createable, so
 * outside the rule) and compound parents, whose parts are scored instead.
 */
function deliberate(object: string, m: FieldMapping): boolean {
  return isSystemField(m.source) || catalogueFor(object)?.fields[m.source]?.action === 'ignore'
}

function plural(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`
}

export function scoreObject(o: CompatibilityInput): CompatibilityResult {
  const manual: string[] = []
  const partial: string[] = []
  if (o.unreadable) return { compatibility: 'manual_review', reasons: [`could not be read: ${o.unreadable}`] }
  if (o.namespace) manual.push(`managed-package object (namespace ${o.namespace}): the package's data model and logic are not in the service`)
  if (o.support === 'none') {
    manual.push(o.custom ? 'custom object with no target in the service: its records are not imported' : 'no target in the service: its records are not imported')
    return { compatibility: 'manual_review', reasons: manual }
  }

  const considered = o.fields.filter((m) => !m.calculated && !deliberate(o.name, m))
  const unmappedRequired = considered.filter((m) => m.required && (m.action === 'custom_field' || m.action === 'ignore'))
  if (unmappedRequired.length > MAX_UNMAPPED_REQUIRED) {
    manual.push(`${unmappedRequired.length} required fields have no target field: ${listNames(unmappedRequired.map((m) => m.source))}`)
  }
  const requiredLost = considered.filter((m) => m.required && m.reference_to && (m.action !== 'reference' || m.status === 'lossy'))
  for (const m of requiredLost) manual.push(`required lookup ${m.source} can point to objects that are not imported (${listNames(m.reference_to!.filter((t) => !(t in (m.targets ?? {}))))})`)

  const formulas = o.fields.filter((m) => m.calculated)
  if (formulas.length > 0) partial.push(`${plural(formulas.length, 'formula field')} not imported (computed by the source): ${listNames(formulas.map((m) => m.source))}`)

  const kept = considered.filter((m) => m.action === 'custom_field' && m.transform !== 'record_type')
  const lookups = kept.filter((m) => m.reference_to)
  // Standard fields with no field in the service are carried in custom_fields by design (the
  // catalogue's decision, value and type kept): nothing is lost, so they do not make an object
  // partial. Custom fields do: their meaning lives in the source's configuration, not here.
  const customKept = kept.filter((m) => !m.reference_to && m.custom)
  if (customKept.length > 0) partial.push(`${plural(customKept.length, 'custom field')} kept in custom_fields: ${listNames(customKept.map((m) => m.source))}`)
  if (lookups.length > 0) partial.push(`${plural(lookups.length, 'lookup')} with no link in the service (source ids kept in custom_fields): ${listNames(lookups.map((m) => `${m.source} -> ${listNames(m.reference_to!, 2)}`))}`)

  for (const m of o.fields.filter((f) => f.status === 'lossy')) partial.push(`${m.source}${m.target ? ` -> ${m.target}` : ''}: ${m.notes.join('; ')}`)

  if (o.recordTypes.length > 0) partial.push(`record types (${listNames(o.recordTypes)}) are kept by developer name in custom_fields; the service has no record types`)
  if (o.personAccounts) partial.push('person accounts are enabled: a person account imports as an account, its Person* contact fields are kept in custom_fields, no contact is created')

  if (manual.length > 0) return { compatibility: 'manual_review', reasons: [...manual, ...partial] }
  if (partial.length > 0) return { compatibility: 'partial', reasons: partial }
  return { compatibility: 'auto', reasons: [] }
}
