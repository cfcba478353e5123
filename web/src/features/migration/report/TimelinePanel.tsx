// How long the import should take and what it costs: records, API calls against the source's daily
// allowance, the measured import speed it assumes, and the time per phase; then the phases the
// analysis recommends, with why.
import { Badge, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Timeline, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import type { AnalysisReport } from '../../../api/migration.ts'
import { count, duration, percent } from '../migrationText.ts'

function Figure({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      {children}
    </Stack>
  )
}

function Allowance({ timeline }: { timeline: AnalysisReport['timeline'] }) {
  const a = timeline.allowance
  if (!a) return <Text size="xs" c="dimmed">The source did not tell its daily allowance.</Text>
  const share = percent(timeline.estimated_api_calls, a.remaining)
  return (
    <Stack gap={4}>
      <Progress value={share} color={share > 80 ? 'red' : share > 40 ? 'yellow' : 'teal'} size="sm" aria-label={`${share}% of the remaining allowance`} />
      <Text size="xs" c="dimmed">
        {share}% of today&apos;s remaining {count(a.remaining)} (of {count(a.max)})
      </Text>
    </Stack>
  )
}

export function TimelinePanel({ timeline, phases }: { timeline: AnalysisReport['timeline']; phases: AnalysisReport['recommended_phases'] }) {
  return (
    <Paper withBorder radius="md" shadow="xs" p="md">
      <Title order={4} mb="md">
        Estimated timeline
      </Title>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="lg" mb="lg">
        <Figure label="Records" value={count(timeline.records)} />
        <Figure label="API calls" value={count(timeline.estimated_api_calls)}>
          <Allowance timeline={timeline} />
        </Figure>
        <Figure label="Import speed" value={`${count(timeline.assumed_records_per_second)}/s`}>
          <Text size="xs" c="dimmed">
            Measured on this service
          </Text>
        </Figure>
        <Figure label="Estimated time" value={duration(timeline.estimated_seconds)} />
      </SimpleGrid>
      {timeline.phases.length > 0 && (
        <Table verticalSpacing={6} fz="sm" withTableBorder mb="lg" aria-label="Time per phase">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Phase</Table.Th>
              <Table.Th>Objects</Table.Th>
              <Table.Th ta="right">Records</Table.Th>
              <Table.Th ta="right">Estimated time</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {timeline.phases.map((p) => (
              <Table.Tr key={p.name}>
                <Table.Td fw={500}>{p.name}</Table.Td>
                <Table.Td>{p.objects.join(', ')}</Table.Td>
                <Table.Td ta="right">{count(p.records)}</Table.Td>
                <Table.Td ta="right">{duration(p.estimated_seconds)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {phases.length > 0 && (
        <>
          <Text fw={600} mb="sm">
            Recommended approach
          </Text>
          <Timeline active={-1} bulletSize={22} lineWidth={2}>
            {phases.map((p, i) => (
              <Timeline.Item key={p.name} title={p.name} bullet={<Text size="xs" fw={700}>{i + 1}</Text>}>
                <Group gap={4} mt={4}>
                  {p.objects.map((o) => (
                    <Badge key={o} size="sm" variant="default" tt="none">
                      {o}
                    </Badge>
                  ))}
                </Group>
                <Text size="sm" c="dimmed" mt={4}>
                  {p.why}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        </>
      )}
    </Paper>
  )
}
