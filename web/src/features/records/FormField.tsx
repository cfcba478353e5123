// One form input for one field, chosen by the field's type; labels are the kind's field labels.
import { Checkbox, Select, Textarea, TextInput } from '@mantine/core'
import { humanize, type FieldDef } from '../../kinds.ts'
import { ReferenceSelect } from './ReferenceSelect.tsx'
import { PicklistSelect } from './PicklistSelect.tsx'
import { OwnerSelect } from '../owners/OwnerSelect.tsx'

export type FormValue = string | number | boolean

interface Props {
  field: FieldDef
  value: FormValue
  onChange: (value: FormValue) => void
  error?: string
}

export function FormField({ field, value, onChange, error }: Props) {
  // aria-label keeps the accessible name exactly the field label (the visual asterisk is not part of it).
  const common = { label: field.label, withAsterisk: Boolean(field.required), error, name: field.name, 'aria-label': field.label, 'aria-required': field.required || undefined }
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value)
  // A standard picklist (industry, lead source...): the organization's options, not free text.
  if (field.picklist) return <PicklistSelect {...common} field={field} value={text} onChange={onChange} />
  switch (field.type) {
    case 'text':
      return <Textarea {...common} autosize minRows={3} maxRows={12} maxLength={field.maxLength} value={text} onChange={(e) => onChange(e.currentTarget.value)} />
    case 'enum':
      return (
        <Select
          {...common}
          data={(field.values ?? []).map((v) => ({ value: v, label: humanize(v) }))}
          value={text || null}
          onChange={(v) => onChange(v ?? '')}
          // A field with a default (a case's status) always holds a value: it cannot be cleared.
          clearable={!field.required && field.default === undefined}
          allowDeselect={!field.required && field.default === undefined}
          placeholder={`Choose ${field.label.toLowerCase()}`}
        />
      )
    case 'integer':
      // Plain text, kept as typed: a number input would drop a lone "-" or clamp -5 to 0 without a
      // word. The form's check flags what is not a whole number in range.
      return <TextInput {...common} inputMode="numeric" value={text} onChange={(e) => onChange(e.currentTarget.value)} />
    case 'decimal':
      return <TextInput {...common} inputMode="decimal" placeholder="0.00" value={text} onChange={(e) => onChange(e.currentTarget.value)} />
    case 'boolean':
      return (
        <Checkbox
          label={field.label}
          name={field.name}
          error={error}
          checked={Boolean(value)}
          onChange={(e) => onChange(e.currentTarget.checked)}
          mt={26}
        />
      )
    case 'date':
      return <TextInput {...common} type="date" value={text} onChange={(e) => onChange(e.currentTarget.value)} />
    case 'datetime':
      return <TextInput {...common} type="datetime-local" value={text} onChange={(e) => onChange(e.currentTarget.value)} />
    case 'user':
      return <OwnerSelect field={field} value={text} onChange={onChange} error={error} />
    case 'ref':
      return <ReferenceSelect field={field} value={text} onChange={onChange} error={error} required={field.required} />
    default:
      return (
        <TextInput
          {...common}
          type={field.type === 'email' ? 'email' : field.type === 'url' ? 'url' : 'text'}
          maxLength={field.maxLength}
          value={text}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      )
  }
}
