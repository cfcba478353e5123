// Choosing a record's owner in its form: the organization's members by name, searchable, with
// "Unassigned" as the cleared value. A new record's form starts with the person creating it.
import { Select } from '@mantine/core'
import { useMe } from '../../api/queries.ts'
import type { FieldDef } from '../../kinds.ts'
import { useMemberDirectory } from './useMemberDirectory.ts'

interface Props {
  field: FieldDef
  value: string
  onChange: (value: string) => void
  error?: string
}

export function OwnerSelect({ field, value, onChange, error }: Props) {
  const me = useMe()
  const directory = useMemberDirectory()
  const myId = me.data?.user?.id
  const data = (directory.data?.members ?? []).map((m) => ({ value: m.user_id, label: m.user_id === myId ? `${m.name} (you)` : m.name }))
  if (value && !data.some((d) => d.value === value)) data.unshift({ value, label: directory.isPending ? 'Loading…' : 'Former member' })
  return (
    <Select
      label={field.label}
      aria-label={field.label}
      name={field.name}
      placeholder="Unassigned"
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      clearable
      nothingFoundMessage="No member by that name"
      error={error}
    />
  )
}
