// The ranges a list is narrowed by, as removable chips ("Amount ≥ 1,000", "Created ≤ Mar 3, 2026").
import { CloseButton, Group, Paper, Text } from '@mantine/core'
import { IconFilter } from '@tabler/icons-react'
import { formatDate, type RecordKind } from '../../kinds.ts'
import { rangeFieldsOf, rangeKey, type ListField } from './listUrlState.ts'

function shown(field: ListField, value: string): string {
  if (field.type === 'date' || field.type === 'datetime') return formatDate(value.slice(0, 10))
  const n = Number(value)
  return Number.isFinite(n) ? n.toLocaleString() : value
}

export function ActiveRangeChips({ kind, ranges, onRemove }: { kind: RecordKind; ranges: Record<string, string>; onRemove: (key: string) => void }) {
  const chips = rangeFieldsOf(kind).flatMap((f) =>
    (['gte', 'lte'] as const).filter((b) => ranges[rangeKey(f.name, b)]).map((b) => ({ key: rangeKey(f.name, b), field: f, bound: b, value: ranges[rangeKey(f.name, b)]! })),
  )
  if (chips.length === 0) return null
  return (
    <Group gap="xs" mb="md">
      {chips.map((c) => (
        <Paper key={c.key} withBorder radius="xl" px="sm" py={4}>
          <Group gap={6} wrap="nowrap">
            <IconFilter size={14} color="var(--mantine-color-dimmed)" />
            <Text size="sm">
              <Text span c="dimmed" size="sm">
                {c.field.label} {c.bound === 'gte' ? '≥' : '≤'}
              </Text>{' '}
              {shown(c.field, c.value)}
            </Text>
            <CloseButton size="xs" aria-label={`Remove ${c.field.label} ${c.bound === 'gte' ? 'from' : 'to'} filter`} onClick={() => onRemove(c.key)} />
          </Group>
        </Paper>
      ))}
    </Group>
  )
}
