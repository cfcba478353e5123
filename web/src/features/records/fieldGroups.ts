// Splits a kind's fields into the sections a record page and form show: details, address,
// related records, long text, and the fields only the service sets.
import type { FieldDef, RecordKind } from '../../kinds.ts'

export interface FieldGroup {
  title: string
  fields: FieldDef[]
  /** Long text: one column, full width. */
  wide?: boolean
}

const ADDRESS = /^(billing|mailing|shipping)_/

export function fieldGroups(kind: RecordKind, fields: readonly FieldDef[] = kind.fields): FieldGroup[] {
  const details: FieldDef[] = []
  const address = new Map<string, FieldDef[]>()
  const related: FieldDef[] = []
  const long: FieldDef[] = []
  const system: FieldDef[] = []
  for (const f of fields) {
    if (f.readOnly) system.push(f)
    else if (f.type === 'user') related.unshift(f)
    else if (f.type === 'text') long.push(f)
    else if (f.type === 'ref') related.push(f)
    else if (ADDRESS.test(f.name)) {
      const prefix = f.name.split('_')[0]!
      address.set(prefix, [...(address.get(prefix) ?? []), f])
    } else details.push(f)
  }
  const groups: FieldGroup[] = [{ title: 'Details', fields: details }]
  for (const [prefix, list] of address) groups.push({ title: `${prefix.charAt(0).toUpperCase()}${prefix.slice(1)} address`, fields: list })
  groups.push({ title: 'Related records', fields: related })
  groups.push({ title: 'Notes', fields: long, wide: true })
  groups.push({ title: 'Tracking', fields: system })
  return groups.filter((g) => g.fields.length > 0)
}
