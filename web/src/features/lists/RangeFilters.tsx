// "Filters" for ranges: a from/to pair per date, time and number field of the kind (created date,
// amount, close date...), applied together. Values go to the URL as the API takes them
// (`close_date[gte]=2026-01-01`, `created_at[lte]=...T23:59:59.999Z`).
import { Badge, Button, Group, Popover, SimpleGrid, Stack, Text, TextInput } from '@mantine/core'
import { IconAdjustmentsHorizontal } from '@tabler/icons-react'
import { useState } from 'react'
import type { RecordKind } from '../../kinds.ts'
import { rangeFieldsOf, rangeKey, type ListField, type RangeBound } from './listUrlState.ts'

/** What the input shows of an API value: datetimes are picked by day. */
export function inputValue(field: ListField, value: string | undefined): string {
  if (!value) return ''
  return field.type === 'datetime' ? value.slice(0, 10) : value
}

/** The API value of an input: a day becomes the start (from) or end (to) of that UTC day. */
function apiValue(field: ListField, bound: RangeBound, text: string): string | null {
  const v = text.trim().replace(/,/g, '')
  if (!v) return null
  if (field.type === 'datetime') return bound === 'gte' ? `${v}T00:00:00.000Z` : `${v}T23:59:59.999Z`
  return v
}

function RangeInput({ field, bound, value, onChange }: { field: ListField; bound: RangeBound; value: string; onChange: (v: string) => void }) {
  const dated = field.type === 'date' || field.type === 'datetime'
  const label = `${field.label} ${bound === 'gte' ? 'from' : 'to'}`
  return (
    <TextInput
      aria-label={label}
      placeholder={dated ? undefined : bound === 'gte' ? 'Min' : 'Max'}
      type={dated ? 'date' : 'text'}
      inputMode={dated ? undefined : field.type === 'integer' ? 'numeric' : 'decimal'}
      size="xs"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  )
}

interface Props {
  kind: RecordKind
  ranges: Record<string, string>
  /** Fields the caller may not filter by (amounts without erp:read). */
  hidden?: readonly string[]
  onApply: (values: Record<string, string | null>) => void
}

export function RangeFilters({ kind, ranges, hidden = [], onApply }: Props) {
  const fields = rangeFieldsOf(kind).filter((f) => !hidden.includes(f.name))
  const [opened, setOpened] = useState(false)
  const [draft, setDraft] = useState<Record<string, string>>({})
  const active = Object.keys(ranges).length
  if (fields.length === 0) return null

  const open = () => {
    setDraft(Object.fromEntries(fields.flatMap((f) => (['gte', 'lte'] as const).map((b) => [rangeKey(f.name, b), inputValue(f, ranges[rangeKey(f.name, b)])]))))
    setOpened(true)
  }
  const apply = () => {
    const values: Record<string, string | null> = {}
    for (const f of fields) for (const b of ['gte', 'lte'] as const) values[rangeKey(f.name, b)] = apiValue(f, b, draft[rangeKey(f.name, b)] ?? '')
    onApply(values)
    setOpened(false)
  }
  const clear = () => {
    onApply(Object.fromEntries(fields.flatMap((f) => (['gte', 'lte'] as const).map((b) => [rangeKey(f.name, b), null]))))
    setOpened(false)
  }

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" width={380} trapFocus>
      <Popover.Target>
        <Button
          variant={active ? 'light' : 'default'}
          leftSection={<IconAdjustmentsHorizontal size={16} />}
          rightSection={active ? <Badge size="xs" circle>{active}</Badge> : undefined}
          onClick={() => (opened ? setOpened(false) : open())}
        >
          Filters
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            apply()
          }}
        >
          <Stack gap="sm">
            <Text size="sm" fw={600}>
              Ranges
            </Text>
            {fields.map((f) => (
              <div key={f.name}>
                <Text size="xs" c="dimmed" fw={500} mb={4}>
                  {f.label}
                </Text>
                <SimpleGrid cols={2} spacing="xs">
                  {(['gte', 'lte'] as const).map((b) => (
                    <RangeInput key={b} field={f} bound={b} value={draft[rangeKey(f.name, b)] ?? ''} onChange={(v) => setDraft((d) => ({ ...d, [rangeKey(f.name, b)]: v }))} />
                  ))}
                </SimpleGrid>
              </div>
            ))}
            <Group justify="space-between" mt="xs">
              <Button variant="subtle" color="gray" size="xs" onClick={clear} disabled={!active}>
                Clear ranges
              </Button>
              <Button size="xs" type="submit">
                Apply
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  )
}
