// Every object the analysis found: where it goes in Cairn, its records, how well it maps (with the
// reasons), its automation and how the importer will read it.
import { Badge, List, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core'
import type { AnalysisReport, ObjectAnalysis } from '../../../api/migration.ts'
import { AUTOMATION_LEVEL, COMPATIBILITY, count, targetLabel } from '../migrationText.ts'
import { ApiNameLabel } from './ApiNameLabel.tsx'

function ObjectName({ o }: { o: ObjectAnalysis }) {
  const badges = [o.custom && { text: 'Custom', color: 'gray' }, o.namespace && { text: `Package ${o.namespace}`, color: 'grape' }]
  return <ApiNameLabel label={o.label} apiName={o.name} badges={badges} fw={600} gap={6} />
}

function Compatibility({ o }: { o: ObjectAnalysis }) {
  const c = COMPATIBILITY[o.compatibility]
  return (
    <Stack gap={4}>
      <Badge color={c.color} variant="light">
        {c.label}
      </Badge>
      {o.reasons.length > 0 && (
        <List size="xs" c="dimmed" spacing={2}>
          {o.reasons.map((r) => (
            <List.Item key={r}>{r}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  )
}

function Automation({ a }: { a: ObjectAnalysis['automation'] }) {
  const level = AUTOMATION_LEVEL[a.level]
  const parts = [
    a.active_triggers && `${a.active_triggers} trigger${a.active_triggers > 1 ? 's' : ''}`,
    a.record_triggered_flows + a.scheduled_flows + a.other_flows && `${a.record_triggered_flows + a.scheduled_flows + a.other_flows} flows`,
    a.workflow_rules && `${a.workflow_rules} workflow rule${a.workflow_rules > 1 ? 's' : ''}`,
  ].filter(Boolean)
  return (
    <Tooltip label={parts.length ? parts.join(', ') : 'No triggers, flows or workflow rules'} withArrow>
      <Badge color={level.color} variant="dot">
        {level.label}
      </Badge>
    </Tooltip>
  )
}

export function ObjectsTable({ report }: { report: AnalysisReport }) {
  const filtered = report.filtered_objects
  return (
    <Paper withBorder radius="md" shadow="xs">
      <Stack gap={2} p="md" pb="xs">
        <Title order={4}>Objects</Title>
        <Text size="sm" c="dimmed">
          {filtered.count > 0 &&
            `${count(filtered.count)} system objects were left out (${filtered.examples.slice(0, 4).join(', ')}${filtered.count > 4 ? ', …' : ''}): sharing, history, feeds and setup data do not migrate.`}
        </Text>
      </Stack>
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="sm" aria-label="Objects">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={190}>Object</Table.Th>
              <Table.Th w={130}>In Cairn</Table.Th>
              <Table.Th w={80} ta="right">
                Records
              </Table.Th>
              <Table.Th>Compatibility</Table.Th>
              <Table.Th w={110}>Automation</Table.Th>
              <Table.Th w={100}>Read via</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.objects.map((o) => (
              <Table.Tr key={o.name} data-object={o.name} style={{ verticalAlign: 'top' }}>
                <Table.Td>
                  <ObjectName o={o} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={o.target ? undefined : 'dimmed'}>
                    {targetLabel(o.target)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm">{count(o.record_count)}</Text>
                </Table.Td>
                <Table.Td>
                  <Compatibility o={o} />
                </Table.Td>
                <Table.Td>
                  <Automation a={o.automation} />
                </Table.Td>
                <Table.Td>
                  <Tooltip label={o.read_via === 'bulk' ? 'Large object: read with Bulk API 2.0 jobs' : 'Read with REST queries, 2,000 records a page'} withArrow>
                    <Badge variant="default">{o.read_via === 'bulk' ? 'Bulk API' : 'REST'}</Badge>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  )
}
