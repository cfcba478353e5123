// One framed setting group of the Configure step: a title, why it matters, the controls, and the
// server's error about it (if any) right there.
import { Paper, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'

export function ConfigSection(props: { title: string; description: ReactNode; error?: string | null; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" shadow="xs" p="md" component="fieldset" style={{ margin: 0, minWidth: 0 }} aria-label={props.title}>
      <Title order={4}>{props.title}</Title>
      <Text size="sm" c="dimmed" mb="md" maw={820}>
        {props.description}
      </Text>
      {props.error && (
        <Text size="sm" c="red.7" mb="sm" role="alert">
          {props.error}
        </Text>
      )}
      {props.children}
    </Paper>
  )
}
