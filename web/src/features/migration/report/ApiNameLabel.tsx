// A source object's or field's name as the wizard shows it: its label, its API name below when the
// two differ, and badges for what is special about it.
import { Badge, Group, Stack, Text } from '@mantine/core'

export interface NameBadge {
  text: string
  color: string
}

export function ApiNameLabel({ label, apiName, badges, fw, gap }: { label: string; apiName: string; badges: ReadonlyArray<NameBadge | false | null | undefined | ''>; fw: number; gap: number }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={fw}>
        {label}
      </Text>
      <Group gap={gap}>
        {apiName !== label && (
          <Text size="xs" c="dimmed" ff="monospace">
            {apiName}
          </Text>
        )}
        {badges.map(
          (b) =>
            b && (
              <Badge key={b.text} size="xs" variant="outline" color={b.color}>
                {b.text}
              </Badge>
            ),
        )}
      </Group>
    </Stack>
  )
}
