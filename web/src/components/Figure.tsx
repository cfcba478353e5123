// One counted figure in a small card: "Created 40", dimmed at zero.
import { Paper, Text } from '@mantine/core'

export function Figure({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} c={value > 0 ? color : 'dimmed'} aria-label={label}>
        {value.toLocaleString('en-US')}
      </Text>
    </Paper>
  )
}
