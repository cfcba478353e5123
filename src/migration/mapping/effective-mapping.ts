/**
 * The mapping a run uses: the analysis' proposal with the user's changes from Configure applied
 * (`field_overrides`), and the checks those changes must pass before they are saved. The checks
 * name the exact override at fault (`field_overrides.Account.Website`) so the form can show it.
 *
 * A formula field may be overridden into custom_fields or a target field: the value imported is a
 * snapshot of what the source computed at migration time, and the service never recalculates it.
 * That is a legitimate choice (keep "Days open" as it was on the last day), so it is allowed and noted.
 */
import { kindsByName, type KindName } from '../../records/contracts.ts'
import type { FieldError } from '../../shared/errors.ts'
import type { FieldMapping, FieldOverride } from '../migration.types.ts'
import { baseMapping, keepInCustomFields, sourceFieldOf, valueField } from './auto-map.ts'
import { catalogueFor } from './catalogue.ts'
import { compatibility, isImportableTarget, targetField } from './field-types.ts'
import { ruleProvided } from './record-rules.ts'

const SNAPSHOT = 'formula field: the value computed by the source at migration time is imported, and never recalculated'
const NO_VALUE_TYPES = new Set(['address', 'location', 'base64', 'complexvalue'])

/** Why an override cannot apply to this field, or null when it can. */
function refusal(kind: KindName, m: FieldMapping, ov: FieldOverride): string | null {
  if (ov.action === 'ignore') return null
  if (NO_VALUE_TYPES.has(m.source_type)) {
    return m.source_type === 'base64' ? 'file content cannot be imported' : 'a compound field has no value of its own: its parts are imported one by one'
  }
  if (ov.action === 'custom_field') return null
  if (ov.action !== 'field') return `unknown action ${JSON.stringify((ov as { action: unknown }).action)}: use field, custom_field or ignore`
  if (typeof ov.target !== 'string' || ov.target === '') return 'a field mapping needs a target field'
  const def = targetField(kind, ov.target)
  if (!def) return `${kindsByName[kind].label.toLowerCase()} has no field ${ov.target}`
  if (!isImportableTarget(kind, def)) return `${ov.target} is set by the importer itself`
  if (def.type === 'ref' || def.type === 'user') return `${ov.target} is a link: links and owners are mapped by the analysis; keep ${m.source} in custom_fields or ignore it`
  if (!compatibility(sourceFieldOf(m), def)) return `a ${m.source_type} field cannot fill ${ov.target} (${def.type})`
  return null
}

function overridden(kind: KindName, m: FieldMapping, ov: FieldOverride): FieldMapping {
  const f = sourceFieldOf(m)
  const out = baseMapping(f)
  if (ov.action === 'ignore') {
    out.notes.push('not imported: ignored in the configuration')
    return out
  }
  let mapped: FieldMapping
  if (ov.action === 'field') mapped = valueField(out, f, kind, targetField(kind, ov.target)!, `mapped to ${ov.target} (configuration)`)
  else if (m.transform === 'record_type') mapped = { ...out, action: 'custom_field', transform: 'record_type', notes: ['record type developer name kept in custom_fields (configuration)'] }
  else mapped = keepInCustomFields(out, f, 'kept in custom_fields (configuration)')
  if (m.calculated && mapped.action !== 'ignore') mapped.notes.push(SNAPSHOT)
  return mapped
}

/**
 * The analysis' mappings of one object of kind `kind` with its overrides applied. Call
 * validateOverrides first: an override it would refuse throws here.
 */
export function effectiveMappings(fields: readonly FieldMapping[], overrides: Readonly<Record<string, FieldOverride>> | undefined, kind: KindName): FieldMapping[] {
  if (!overrides || Object.keys(overrides).length === 0) return [...fields]
  for (const source of Object.keys(overrides)) {
    if (!fields.some((m) => m.source === source)) throw new Error(`field_overrides: no source field ${source}`)
  }
  return fields.map((m) => {
    const ov = overrides[m.source]
    if (!ov) return m
    const why = refusal(kind, m, ov)
    if (why) throw new Error(`field_overrides.${m.source}: ${why}`)
    return overridden(kind, m, ov)
  })
}

/** Target fields filled by value (`field`, `owner`) -> the source fields filling them. */
function filledBy(fields: readonly FieldMapping[]): Map<string, string[]> {
  const by = new Map<string, string[]>()
  for (const m of fields) {
    if ((m.action === 'field' || m.action === 'owner') && m.target) by.set(m.target, [...(by.get(m.target) ?? []), m.source])
  }
  return by
}

/**
 * Field-level errors of one object's overrides (`field_overrides.<object>.<field>`): unknown source
 * fields, unknown or unimportable targets, types that do not fit, two source fields for one target,
 * and required target fields (or a comment's case) left with no source. Empty when all is well.
 */
export function validateOverrides(object: string, kind: KindName, fields: readonly FieldMapping[], overrides: Readonly<Record<string, FieldOverride>>): FieldError[] {
  const at = (source: string) => `field_overrides.${object}.${source}`
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    return [{ field: `field_overrides.${object}`, message: 'must be an object of source field -> override' }]
  }
  const errors: FieldError[] = []
  for (const [source, ov] of Object.entries(overrides)) {
    const m = fields.find((f) => f.source === source)
    const why = !m ? `${object} has no field ${source}` : typeof ov !== 'object' || ov === null ? 'must be an override object' : refusal(kind, m, ov)
    if (why) errors.push({ field: at(source), message: why })
  }
  if (errors.length > 0) return errors

  const effective = effectiveMappings(fields, overrides, kind)
  const filled = filledBy(effective)
  for (const [target, sources] of filled) {
    if (sources.length < 2) continue
    for (const source of sources.filter((x) => x in overrides)) {
      const others = sources.filter((x) => x !== source)
      errors.push({ field: at(source), message: `${target} is already filled from ${others.join(', ')}: map only one source field to it` })
    }
  }
  const provided = ruleProvided(object)
  for (const def of kindsByName[kind].fields) {
    if (!def.required || def.type === 'ref' || filled.has(def.name) || provided.has(def.name)) continue
    const lost = fields.find((m) => m.target === def.name && m.source in overrides)
    errors.push({
      field: lost ? at(lost.source) : `field_overrides.${object}`,
      message: `${def.name} is required in the service: map a source field to it${lost ? ` or keep ${lost.source} mapped` : ''}`,
    })
  }
  const entries = catalogueFor(object)?.fields ?? {}
  for (const [source, entry] of Object.entries(entries)) {
    if (entry.action !== 'reference' || !entry.required || !(source in overrides)) continue
    if (effective.find((f) => f.source === source)?.action !== 'reference') {
      errors.push({ field: at(source), message: `every ${object} needs its parent through ${source}: this link cannot be changed` })
    }
  }
  return errors
}
