// "More filters": a control for every filterable field the toolbar does not show itself: standard
// picklists by value (the organization's options), references by name (a search of the referenced
// kind), and text keys (domain, email, code) by exact value. Each applies as it changes; the
// chips above the list show and remove them.
import { Button, Indicator, Popover, Select, Stack, TextInput } from '@mantine/core'
import { IconFilter } from '@tabler/icons-react'
import { useState } from 'react'
import { usePicklistOptions } from '../../api/picklists.ts'
import { listFilterFields, type FieldDef, type RecordKind } from '../../kinds.ts'
import { ReferenceSelect } from '../records/ReferenceSelect.tsx'

/** The filterable fields this control offers (enumerations and yes/no have their own selects). */
export function moreFilterFields(kind: RecordKind): FieldDef[] {
  const inToolbar = listFilterFields(kind)
  return kind.fields.filter((f) => f.filter && !inToolbar.includes(f) && f.type !== 'user' && f.type !== 'integer')
}

function PicklistFilter({ kind, field, value, onChange }: { kind: RecordKind; field: FieldDef; value: string; onChange: (v: string | null) => void }) {
  const options = usePicklistOptions(kind.name, field.name, value)
  return <Select label={field.label} aria-label={field.label} placeholder={`Any ${field.label.toLowerCase()}`} data={options} value={value || null} onChange={onChange} searchable clearable comboboxProps={{ withinPortal: false }} />
}

function TextFilter({ field, value, onChange }: { field: FieldDef; value: string; onChange: (v: string | null) => void }) {
  const [text, setText] = useState(value)
  return (
    <TextInput
      label={field.label}
      aria-label={field.label}
      placeholder="Exact value"
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={() => text.trim() !== value && onChange(text.trim() || null)}
      onKeyDown={(e) => e.key === 'Enter' && onChange(text.trim() || null)}
    />
  )
}

export function FieldFilters({ kind, values, onFilter }: { kind: RecordKind; values: Record<string, string | undefined>; onFilter: (field: string, value: string | null) => void }) {
  const fields = moreFilterFields(kind)
  if (fields.length === 0) return null
  const active = fields.filter((f) => values[f.name]).length
  return (
    <Popover position="bottom-end" shadow="md" width={300} trapFocus>
      <Popover.Target>
        <Indicator label={active} size={16} disabled={active === 0} offset={4}>
          <Button variant="default" leftSection={<IconFilter size={16} />}>
            More filters
          </Button>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm">
          {fields.map((f) => {
            const value = values[f.name] ?? ''
            const change = (v: string | null) => onFilter(f.name, v || null)
            if (f.picklist) return <PicklistFilter key={f.name} kind={kind} field={f} value={value} onChange={change} />
            if (f.type === 'ref') return <ReferenceSelect key={f.name} field={f} value={value} onChange={(v) => change(v)} inPopover />
            return <TextFilter key={f.name} field={f} value={value} onChange={change} />
          })}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  )
}
