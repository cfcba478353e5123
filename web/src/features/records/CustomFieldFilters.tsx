// List filters on custom fields: a "Filter by field" popover that adds `custom_fields.<name>=value`
// (or a from/to range for numbers and dates) to the URL, and removable chips for the active ones.
import { Button, CloseButton, Group, NumberInput, Paper, Popover, Select, Stack, Text, TextInput } from '@mantine/core'
import { IconAdjustmentsHorizontal, IconFilter } from '@tabler/icons-react'
import { useState } from 'react'
import type { CustomField } from '../../api/customFields.ts'

const PREFIX = 'custom_fields.'
const RANGE = /^custom_fields\.([a-z0-9_]+)\[(gte|lte)\]$/

/** The custom filter parameters present in the URL, as the list query takes them. */
export function customFilterParams(params: URLSearchParams): Record<string, string> {
  return Object.fromEntries([...params].filter(([key, value]) => key.startsWith(PREFIX) && value !== ''))
}

function describe(defs: readonly CustomField[], key: string, value: string): { label: string; text: string } {
  const range = RANGE.exec(key)
  const name = range ? range[1] : key.slice(PREFIX.length)
  const def = defs.find((d) => d.name === name)
  const label = def?.label ?? name
  if (range) return { label, text: `${range[2] === 'gte' ? 'from' : 'to'} ${value}` }
  if (def?.type === 'boolean') return { label, text: value === 'true' ? 'Yes' : 'No' }
  return { label, text: value }
}

export function CustomFilterChips({ defs, params, onRemove }: { defs: readonly CustomField[]; params: Record<string, string>; onRemove: (key: string) => void }) {
  const keys = Object.keys(params)
  if (keys.length === 0) return null
  return (
    <Group gap="xs" mb="md">
      {keys.map((key) => {
        const { label, text } = describe(defs, key, params[key]!)
        return (
          <Paper key={key} withBorder radius="xl" px="sm" py={4}>
            <Group gap={6} wrap="nowrap">
              <IconFilter size={14} color="var(--mantine-color-dimmed)" />
              <Text size="sm" c="dimmed">
                {label}:
              </Text>
              <Text size="sm">{text}</Text>
              <CloseButton size="xs" aria-label={`Remove ${label} filter`} onClick={() => onRemove(key)} />
            </Group>
          </Paper>
        )
      })}
    </Group>
  )
}

/** The value controls of one field; `apply` gets the parameters to set (empty ones are removed). */
function ValueControls({ def, apply }: { def: CustomField; apply: (params: Record<string, string>) => void }) {
  const [value, setValue] = useState<string>('')
  const [from, setFrom] = useState<string | number>('')
  const [to, setTo] = useState<string | number>('')
  const key = `${PREFIX}${def.name}`
  if (def.type === 'number' || def.type === 'date') {
    const input = (label: string, v: string | number, set: (v: string | number) => void) =>
      def.type === 'number' ? (
        <NumberInput label={label} value={v} onChange={set} clampBehavior="none" thousandSeparator="," w={140} />
      ) : (
        <TextInput label={label} type="date" value={String(v)} onChange={(e) => set(e.currentTarget.value)} w={160} />
      )
    return (
      <Stack gap="xs">
        <Group gap="xs" align="flex-end" wrap="nowrap">
          {input('From', from, setFrom)}
          {input('To', to, setTo)}
        </Group>
        <Button size="xs" disabled={from === '' && to === ''} onClick={() => apply({ [`${key}[gte]`]: String(from), [`${key}[lte]`]: String(to) })}>
          Apply filter
        </Button>
      </Stack>
    )
  }
  const data =
    def.type === 'boolean'
      ? [
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]
      : def.options.map((o) => ({ value: o, label: o }))
  return (
    <Stack gap="xs">
      {def.type === 'text' ? (
        <TextInput label="Is exactly" value={value} onChange={(e) => setValue(e.currentTarget.value)} />
      ) : (
        <Select label="Is" aria-label={`${def.label} value`} data={data} value={value || null} onChange={(v) => setValue(v ?? '')} placeholder="Choose a value" comboboxProps={{ withinPortal: false }} />
      )}
      <Button size="xs" disabled={value === ''} onClick={() => apply({ [key]: value })}>
        Apply filter
      </Button>
    </Stack>
  )
}

export function CustomFieldFilterButton({ defs, onApply }: { defs: readonly CustomField[]; onApply: (params: Record<string, string>) => void }) {
  const [opened, setOpened] = useState(false)
  const [name, setName] = useState<string | null>(null)
  if (defs.length === 0) return null
  const def = defs.find((d) => d.name === name)
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" width={320} trapFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconAdjustmentsHorizontal size={16} />} onClick={() => setOpened((o) => !o)}>
          Filter by field
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm">
          <Select
            label="Field"
            data={defs.map((d) => ({ value: d.name, label: d.label }))}
            value={name}
            onChange={setName}
            placeholder="Choose a custom field"
            comboboxProps={{ withinPortal: false }}
          />
          {def && (
            <ValueControls
              key={def.name}
              def={def}
              apply={(params) => {
                onApply(params)
                setOpened(false)
                setName(null)
              }}
            />
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  )
}
