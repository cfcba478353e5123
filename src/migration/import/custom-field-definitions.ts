/**
 * Configure's `create_custom_fields`: source fields the mapping keeps in `custom_fields` (custom
 * fields, standard fields without a target) become custom field definitions of their kind, typed
 * from the source describe, and their values are written under the definition's name instead of
 * the source's API name (docs/migration.md, Configure; docs/custom-fields.md, Imports).
 *
 * Definitions are made (or found, on a resumed or repeated run) once per object, before its first
 * page. A value that does not fit its definition (a picklist value the describe did not list, a
 * number field holding text) stays under the source name, with a warning: nothing is lost.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { recordCustomFields } from '../../records/index.ts'
import { suggestedName, type CustomFieldDefinition, type CustomFieldType, type RecordKind } from '../../records/contracts.ts'
import type { FieldMapping } from '../migration.types.ts'

/** Most definitions the importer makes per kind, leaving room for the administrators' own (100 in all). */
const MAX_IMPORTED_DEFINITIONS = 80

/** The definition type of a source field, or null for fields that make no sense as one (links, compounds, files). */
export function inferredType(m: FieldMapping): { type: CustomFieldType; options: string[] } | null {
  switch (m.source_type) {
    case 'boolean':
      return { type: 'boolean', options: [] }
    case 'int':
    case 'long':
    case 'double':
    case 'currency':
    case 'percent':
      return { type: 'number', options: [] }
    case 'date':
      return { type: 'date', options: [] }
    case 'picklist': {
      const options = [...new Set((m.source_values ?? []).map((v) => v.trim()).filter((v) => v !== '' && v.length <= 120))].slice(0, 200)
      return options.length > 0 ? { type: 'picklist', options } : { type: 'text', options: [] }
    }
    case 'string':
    case 'textarea':
    case 'email':
    case 'phone':
    case 'url':
    case 'combobox':
    case 'multipicklist':
    case 'encryptedstring':
    case 'datetime':
    case 'time':
      return { type: 'text', options: [] }
    default:
      // reference, id, address, location, base64, anyType...: kept in custom_fields as they are.
      return null
  }
}

function sameShape(def: CustomFieldDefinition, wanted: { type: CustomFieldType }): boolean {
  return def.type === wanted.type
}

/**
 * Source field -> the definition its values go to, creating the missing definitions. A name taken
 * by a definition of another type, or by a built-in field, is not reused: that source field stays in
 * custom_fields under its own name.
 */
export async function defineImportedFields(db: Kysely<DB>, orgId: string, kind: RecordKind, mappings: readonly FieldMapping[]): Promise<Map<string, CustomFieldDefinition>> {
  const existing = new Map((await recordCustomFields.listCustomFieldDefinitions(db, orgId, kind.name)).map((d) => [d.name, d]))
  const out = new Map<string, CustomFieldDefinition>()
  let made = 0
  for (const m of mappings) {
    if (m.action !== 'custom_field' || m.transform === 'record_type') continue
    const wanted = inferredType(m)
    if (!wanted) continue
    let name = suggestedName(m.source)
    if (kind.fields.some((f) => f.name === name) || ['id', 'src_id', 'custom_fields', 'created_at', 'updated_at'].includes(name)) name = `${name}_source`.slice(0, 63)
    const found = existing.get(name)
    if (found) {
      if (sameShape(found, wanted) && ![...out.values()].includes(found)) out.set(m.source, found)
      continue
    }
    if (made >= MAX_IMPORTED_DEFINITIONS) continue
    const label = (m.label || m.source).slice(0, 120)
    const created = await recordCustomFields.createDefinition(db, orgId, { kind: kind.name, name, label, type: wanted.type, options: wanted.options })
    existing.set(name, created)
    out.set(m.source, created)
    made++
  }
  return out
}

/**
 * Moves a transformed record's kept values to their definitions' names; answers the warnings for
 * values left under the source name because they do not fit.
 */
export function applyImportedFields(customFields: Record<string, unknown>, targets: ReadonlyMap<string, CustomFieldDefinition>): Array<{ code: string; field: string; reason: string }> {
  const warnings: Array<{ code: string; field: string; reason: string }> = []
  for (const [source, def] of targets) {
    if (!(source in customFields)) continue
    const value = customFields[source]
    const problems = recordCustomFields.customFieldErrors([def], { [def.name]: value }, 'update')
    if (problems.length > 0) {
      warnings.push({ code: 'custom_field_value_kept', field: source, reason: `${JSON.stringify(value)} does not fit the custom field ${def.name} (${def.type}): ${problems[0].message}; kept in custom_fields under ${source}` })
      continue
    }
    delete customFields[source]
    customFields[def.name] = recordCustomFields.settledCustomFields([def], { [def.name]: value })[def.name]
  }
  return warnings
}
