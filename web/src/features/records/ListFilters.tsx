// The list page's toolbar: debounced search (q), a Select per enum/boolean filter field, and
// whatever else the page adds at its end.
import { CloseButton, Group, Select, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconSearch } from '@tabler/icons-react'
import { useEffect, useState, type ReactNode } from 'react'
import { humanize, listFilterFields, type RecordKind } from '../../kinds.ts'

interface Props {
  kind: RecordKind
  q: string
  filters: Record<string, string | undefined>
  onSearch: (q: string) => void
  onFilter: (field: string, value: string | null) => void
  /** More controls at the end of the toolbar (the range filters). */
  children?: ReactNode
}

export function ListFilters({ kind, q, filters, onSearch, onFilter, children }: Props) {
  const [text, setText] = useState(q)
  const [debounced] = useDebouncedValue(text, 300)
  useEffect(() => {
    if (debounced.trim() !== q) onSearch(debounced.trim())
    // onSearch changes identity on every render; the debounced text is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced])
  useEffect(() => setText((current) => (current.trim() === q ? current : q)), [q])

  const searchable = kind.fields.filter((f) => f.search).map((f) => f.label.toLowerCase())
  return (
    <Group gap="sm" mb="md" wrap="wrap">
      <TextInput
        aria-label="Search"
        placeholder={searchable.length ? `Search by ${searchable.slice(0, 3).join(', ')}` : 'Search'}
        leftSection={<IconSearch size={16} />}
        rightSection={text ? <CloseButton size="sm" aria-label="Clear search" onClick={() => setText('')} /> : null}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        style={{ flex: '1 1 260px', maxWidth: 420 }}
      />
      {listFilterFields(kind).map((field) => (
        <Select
          key={field.name}
          aria-label={field.label}
          placeholder={field.type === 'boolean' ? `${field.label}: any` : `Any ${field.label.toLowerCase()}`}
          data={
            field.type === 'boolean'
              ? [
                  { value: 'true', label: `${field.label}: yes` },
                  { value: 'false', label: `${field.label}: no` },
                ]
              : (field.values ?? []).map((v) => ({ value: v, label: humanize(v) }))
          }
          value={filters[field.name] ?? null}
          onChange={(value) => onFilter(field.name, value)}
          clearable
          w={170}
        />
      ))}
      {children}
    </Group>
  )
}
