// A standard picklist's input (industry, lead source...): the organization's options, plus the
// value the record holds when it is not one of them (imported data), marked so, so saving another
// field of the record never loses it.
import { Select } from '@mantine/core'
import { kindsByName } from '../../../../src/web-contracts.ts'
import { usePicklistOptions } from '../../api/picklists.ts'
import type { FieldDef } from '../../kinds.ts'

/** The kind a field definition belongs to (the definitions are shared objects). */
export function kindOfField(field: FieldDef): string {
  return Object.values(kindsByName).find((k) => k.fields.includes(field))?.name ?? ''
}

interface Props {
  field: FieldDef
  value: string
  onChange: (value: string) => void
  label: string
  error?: string
  name: string
  'aria-label': string
}

export function PicklistSelect({ field, value, onChange, ...common }: Props) {
  const options = usePicklistOptions(kindOfField(field), field.name)
  const data = options.map((o) => ({ value: o, label: o }))
  if (value && !options.includes(value)) data.push({ value, label: `${value} (not an option)` })
  return (
    <Select
      {...common}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      clearable
      placeholder={`Choose ${field.label.toLowerCase()}`}
      nothingFoundMessage="No such option: an administrator can add it in Settings"
    />
  )
}
