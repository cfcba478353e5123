// A source field as the report and the mapping editor show it: its label, API name and what is
// special about it (custom, formula, required in the source).
import { Badge, Group, Stack, Text } from '@mantine/core'
import type { FieldMapping } from '../../../api/migration.ts'

export function SourceFieldName({ field: f }: { field: FieldMapping }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {f.label}
      </Text>
      <Group gap={4}>
        {f.source !== f.label && (
          <Text size="xs" c="dimmed" ff="monospace">
            {f.source}
          </Text>
        )}
        {f.custom && (
          <Badge size="xs" variant="outline" color="gray">
            Custom
          </Badge>
        )}
        {f.calculated && (
          <Badge size="xs" variant="outline" color="violet">
            Formula
          </Badge>
        )}
        {f.required && (
          <Badge size="xs" variant="outline" color="orange">
            Required
          </Badge>
        )}
      </Group>
    </Stack>
  )
}

/** Where the analysis sends a field's value, in words. */
export function mappingTarget(f: FieldMapping): string {
  switch (f.action) {
    case 'field':
      return f.target ?? '—'
    case 'reference':
      return Object.entries(f.targets ?? {})
        .map(([object, field]) => `${field} (${object})`)
        .join(', ')
    case 'owner':
      return `${f.target ?? 'owner_id'} (member by email)`
    case 'custom_field':
      return `custom_fields.${f.source}`
    case 'ignore':
      return '—'
  }
}

export const ACTION_LABEL: Record<FieldMapping['action'], string> = {
  field: 'Field',
  reference: 'Link',
  owner: 'Owner',
  custom_field: 'Custom field',
  ignore: 'Not imported',
}
