// One input for a custom field, chosen by its type; the field's label and required flag come from
// its definition (Settings -> Fields).
import { Select, TextInput } from '@mantine/core'
import type { CustomField } from '../../api/customFields.ts'
import type { FormValue } from './FormField.tsx'

interface Props {
  def: CustomField
  value: FormValue
  onChange: (value: FormValue) => void
  error?: string
}

export function CustomFieldInput({ def, value, onChange, error }: Props) {
  const common = { label: def.label, withAsterisk: def.required, error, name: `custom_fields.${def.name}`, 'aria-label': def.label, 'aria-required': def.required || undefined }
  const text = typeof value === 'string' ? value : String(value)
  switch (def.type) {
    case 'number':
      // Plain text, kept as typed: no clamping, rounding or dropped characters. The form's check
      // flags what is not a number before anything is sent.
      return <TextInput {...common} inputMode="decimal" value={text} onChange={(e) => onChange(e.currentTarget.value)} />
    case 'date':
      return <TextInput {...common} type="date" value={text} onChange={(e) => onChange(e.currentTarget.value)} />
    case 'boolean':
      return (
        <Select
          {...common}
          data={[
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]}
          value={text || null}
          onChange={(v) => onChange(v ?? '')}
          clearable={!def.required}
          placeholder="Not set"
        />
      )
    case 'picklist':
      return (
        <Select
          {...common}
          data={[...new Set([...def.options, ...(text && !def.options.includes(text) ? [text] : [])])]}
          value={text || null}
          onChange={(v) => onChange(v ?? '')}
          clearable={!def.required}
          allowDeselect={!def.required}
          searchable={def.options.length > 8}
          placeholder={`Choose ${def.label.toLowerCase()}`}
        />
      )
    default:
      return <TextInput {...common} value={text} onChange={(e) => onChange(e.currentTarget.value)} />
  }
}
