// The top of every page: an optional eyebrow (kind), the title, badges and the page's actions.
import type { ReactNode } from 'react'
import { Group, Stack, Text, Title } from '@mantine/core'

export function PageHeader({ eyebrow, title, badges, actions }: { eyebrow?: ReactNode; title: ReactNode; badges?: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb="lg" wrap="wrap" gap="md">
      <Stack gap={4}>
        {eyebrow && (
          <Text size="xs" fw={600} c="dimmed" tt="uppercase" style={{ letterSpacing: 0.6 }}>
            {eyebrow}
          </Text>
        )}
        <Group gap="sm" align="center">
          <Title order={2}>{title}</Title>
          {badges}
        </Group>
      </Stack>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  )
}
