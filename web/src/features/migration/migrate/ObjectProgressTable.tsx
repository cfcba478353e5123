// Progress per object, live: status, a bar with processed of total, what happened to the records
// (created, updated, linked, skipped, failed, warnings), speed and time left.
import { Badge, Group, Paper, Progress, Stack, Table, Text } from '@mantine/core'
import type { MigrationStatus, ObjectProgress } from '../../../api/migration.ts'
import { count, duration, OBJECT_STATUS, percent, targetLabel } from '../migrationText.ts'

/**
 * An object's status as the person should read it: the one being imported waits with the run
 * while it is paused, and stopped when the run ended without finishing it.
 */
function shownStatus(p: ObjectProgress, run: MigrationStatus): { label: string; color: string } {
  if (p.status !== 'running') return OBJECT_STATUS[p.status]
  if (run === 'paused') return { label: 'Paused', color: 'yellow' }
  if (run !== 'running') return { label: 'Stopped', color: 'gray' }
  return OBJECT_STATUS.running
}

/** What happened to an object's records, one column each, in the order the table shows them. */
const OUTCOMES = [
  { key: 'created', label: 'Created', color: 'teal.8' },
  { key: 'updated', label: 'Updated', color: 'blue.8' },
  { key: 'linked', label: 'Linked', color: 'cyan.8' },
  { key: 'skipped', label: 'Skipped', color: 'gray.8' },
  { key: 'failed', label: 'Failed', color: 'red.7' },
  { key: 'warnings', label: 'Warnings', color: 'yellow.8' },
] as const satisfies ReadonlyArray<{ key: keyof ObjectProgress; label: string; color: string }>

function Num({ value, color }: { value: number; color?: string }) {
  return (
    <Text size="sm" c={value > 0 ? color : 'dimmed'} fw={value > 0 && color ? 600 : undefined}>
      {count(value)}
    </Text>
  )
}

/** Records per second now, or for a finished object its average over the time it took. */
function speed(p: ObjectProgress): number | null {
  if (p.records_per_second) return p.records_per_second
  if (!p.started_at || !p.finished_at || p.processed === 0) return null
  const seconds = (new Date(p.finished_at).getTime() - new Date(p.started_at).getTime()) / 1000
  return seconds > 0 ? Math.round(p.processed / seconds) : null
}

function Row({ p, label, run }: { p: ObjectProgress; label: string; run: MigrationStatus }) {
  const rate = speed(p)
  const status = shownStatus(p, run)
  const moving = p.status === 'running' && run === 'running'
  const done = percent(p.processed, p.total)
  return (
    <Table.Tr data-object={p.object} data-status={p.status}>
      <Table.Td>
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {label}
          </Text>
          <Text size="xs" c="dimmed">
            into {targetLabel(p.target).toLowerCase()}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Badge size="sm" variant="light" color={status.color} styles={{ label: { overflow: 'visible' } }}>
          {status.label}
        </Badge>
      </Table.Td>
      <Table.Td miw={200}>
        <Stack gap={4}>
          <Progress
            value={p.status === 'completed' ? 100 : done}
            color={p.failed > 0 ? 'orange' : p.status === 'completed' ? 'teal' : 'blue'}
            striped={moving}
            animated={moving}
            aria-label={`${label}: ${count(p.processed)} of ${count(p.total)} processed`}
          />
          <Text size="xs" c="dimmed">
            {count(p.processed)} of {count(p.total)}
          </Text>
        </Stack>
      </Table.Td>
      {OUTCOMES.map((o) => (
        <Table.Td key={o.key} ta="right">
          <Num value={p[o.key]} color={o.color} />
        </Table.Td>
      ))}
      <Table.Td ta="right">
        <Text size="sm" c="dimmed">
          {rate ? `${count(rate)}/s` : '—'}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Text size="sm" c="dimmed">
          {moving && p.seconds_left !== null ? duration(p.seconds_left) : p.status === 'completed' ? 'Done' : '—'}
        </Text>
      </Table.Td>
    </Table.Tr>
  )
}

export function ObjectProgressTable({ progress, labels, run }: { progress: ObjectProgress[]; labels: Map<string, string>; run: MigrationStatus }) {
  return (
    <Paper withBorder radius="md" shadow="xs">
      <Table.ScrollContainer minWidth={980}>
        <Table verticalSpacing="sm" aria-label="Progress per object" styles={{ th: { whiteSpace: 'nowrap' } }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Object</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Progress</Table.Th>
              {OUTCOMES.map((o) => (
                <Table.Th key={o.key} ta="right">
                  {o.label}
                </Table.Th>
              ))}
              <Table.Th ta="right">Speed</Table.Th>
              <Table.Th ta="right">Time left</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {progress.map((p) => (
              <Row key={p.object} p={p} label={labels.get(p.object) ?? p.object} run={run} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group gap="lg" px="md" py="xs">
        <Text size="xs" c="dimmed">
          Linked: matched an existing record by a duplicate rule. Skipped and failed records are listed below with their reason once the run ends.
        </Text>
      </Group>
    </Paper>
  )
}
