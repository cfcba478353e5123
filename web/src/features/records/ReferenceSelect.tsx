// A searchable picker for a reference field: options come from the referenced kind's list
// endpoint with `q`, and the current value keeps its title even when not among the results.
import { Loader, Select } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useMemo, useState } from 'react'
import { kindsByName } from '../../../../src/web-contracts.ts'
import { useRecord, useRecordOptions } from '../../api/queries.ts'
import { recordTitle, type FieldDef } from '../../kinds.ts'

interface Props {
  field: FieldDef
  value: string
  onChange: (value: string) => void
  error?: string
  required?: boolean
  /** Inside a popover: the options open within it, so choosing one does not close it. */
  inPopover?: boolean
}

export function ReferenceSelect({ field, value, onChange, error, required, inPopover }: Props) {
  const kind = kindsByName[field.ref!]
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search, 250)
  const current = useRecord(kind, value || null)
  const currentTitle = current.data ? recordTitle(kind, current.data) : ''
  // While the box shows the selected title, list everything rather than only that title.
  const q = debounced && debounced !== currentTitle ? debounced : ''
  const options = useRecordOptions(kind, q)

  const data = useMemo(() => {
    const items = (options.data?.data ?? []).map((r) => ({ value: r.id, label: recordTitle(kind, r) }))
    if (value && !items.some((i) => i.value === value)) items.unshift({ value, label: currentTitle || 'Loading…' })
    return items
  }, [options.data, value, currentTitle, kind])

  return (
    <Select
      label={field.label}
      withAsterisk={required}
      aria-label={field.label}
      aria-required={required || undefined}
      placeholder={`Search ${kind.labelPlural.toLowerCase()}`}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      clearable={!required}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: o }) => o}
      nothingFoundMessage={options.isFetching ? 'Searching…' : `No ${kind.labelPlural.toLowerCase()} found`}
      rightSection={options.isFetching ? <Loader size={14} /> : undefined}
      error={error}
      comboboxProps={inPopover ? { withinPortal: false } : undefined}
    />
  )
}
