// Filters that arrive in the URL without a control of their own (e.g. ?account_id=... from a
// record's related list), shown as removable chips above the list.
import { CloseButton, Group, Paper, Text } from '@mantine/core'
import { IconFilter } from '@tabler/icons-react'
import type { FieldDef } from '../../kinds.ts'
import { ReferenceLink } from './ReferenceLink.tsx'

export function ActiveFilterChips({ fields, values, onRemove }: { fields: FieldDef[]; values: Record<string, string | undefined>; onRemove: (field: string) => void }) {
  const active = fields.filter((f) => values[f.name])
  if (active.length === 0) return null
  return (
    <Group gap="xs" mb="md">
      {active.map((f) => (
        <Paper key={f.name} withBorder radius="xl" px="sm" py={4}>
          <Group gap={6} wrap="nowrap">
            <IconFilter size={14} color="var(--mantine-color-dimmed)" />
            <Text size="sm" c="dimmed">
              {f.label}:
            </Text>
            {f.type === 'ref' && f.ref ? <ReferenceLink kindName={f.ref} id={values[f.name]!} /> : <Text size="sm">{values[f.name]}</Text>}
            <CloseButton size="xs" aria-label={`Remove ${f.label} filter`} onClick={() => onRemove(f.name)} />
          </Group>
        </Paper>
      ))}
    </Group>
  )
}
