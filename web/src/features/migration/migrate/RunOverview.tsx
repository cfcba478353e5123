// The run as a whole: one bar for every record, the totals, speed and time left while it runs,
// Cancel; a banner when the source's API allowance paused it.
import { Alert, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { IconPlayerPause } from '@tabler/icons-react'
import type { MigrationView } from '../../../api/migration.ts'
import { formatDateTime } from '../../../kinds.ts'
import { CancelMigrationButton } from '../CancelMigrationButton.tsx'
import { count, duration, percent } from '../migrationText.ts'

function Total({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={700} c={value > 0 ? color : undefined}>
        {count(value)}
      </Text>
    </Stack>
  )
}

/** Speed of the objects importing now, and the time the remaining records take at it. */
function pace(m: MigrationView): { rate: number; left: number | null } {
  const rate = m.progress.filter((p) => p.status === 'running').reduce((n, p) => n + (p.records_per_second ?? 0), 0)
  const remaining = m.totals.total - m.totals.processed
  return { rate, left: rate > 0 ? remaining / rate : null }
}

export function PausedBanner({ migration }: { migration: MigrationView }) {
  return (
    <Alert color="yellow" variant="light" icon={<IconPlayerPause size={18} />} title="Paused: the source's API allowance is spent" role="status">
      <Text size="sm">
        {migration.status_reason ?? 'The source platform allows a limited number of API calls a day.'}{' '}
        {migration.resume_at ? `Next check: ${formatDateTime(migration.resume_at)}.` : ''} Records imported so far are kept; you can also cancel.
      </Text>
    </Alert>
  )
}

export function RunOverview({ migration: m }: { migration: MigrationView }) {
  const t = m.totals
  const done = percent(t.processed, t.total)
  const working = m.status === 'running' || m.status === 'paused'
  const { rate, left } = pace(m)
  const phase = m.phase ? ` · phase ${m.phase.current} of ${m.phase.total}` : ''
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Title order={4}>
            {working ? 'Importing' : 'Import'}
            {phase}
          </Title>
          <Text size="sm" c="dimmed">
            {count(t.processed)} of {count(t.total)} records processed ({done}%)
            {m.status === 'running' && rate > 0 && ` · ${count(rate)} records/s`}
            {m.status === 'running' && left !== null && ` · about ${duration(left)} left`}
            {m.started_at && ` · started ${formatDateTime(m.started_at)}`}
          </Text>
        </div>
        {working && <CancelMigrationButton migration={m} />}
      </Group>
      <Progress.Root size="xl" mb="md" aria-label={`${done}% of the records processed`}>
        <Progress.Section value={percent(t.created + t.updated + t.linked, t.total)} color="teal" striped={m.status === 'running'} animated={m.status === 'running'} />
        <Progress.Section value={percent(t.skipped, t.total)} color="gray.5" />
        <Progress.Section value={percent(t.failed, t.total)} color="red.6" />
      </Progress.Root>
      <SimpleGrid cols={{ base: 3, sm: 6 }}>
        <Total label="Created" value={t.created} color="teal.8" />
        <Total label="Updated" value={t.updated} color="blue.8" />
        <Total label="Linked" value={t.linked} color="cyan.8" />
        <Total label="Skipped" value={t.skipped} color="gray.8" />
        <Total label="Failed" value={t.failed} color="red.7" />
        <Total label="Warnings" value={t.warnings} color="yellow.8" />
      </SimpleGrid>
    </Paper>
  )
}
