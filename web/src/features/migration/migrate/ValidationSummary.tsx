// After the run: per object, the source's count against what was imported, skipped and failed,
// and what Cairn now holds from this source; as a table and as grouped bars.
import { BarChart } from '@mantine/charts'
import { Grid, Paper, Table, Text, ThemeIcon, Title, Tooltip } from '@mantine/core'
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react'
import type { ValidationRow } from '../../../api/migration.ts'
import { count, targetLabel } from '../migrationText.ts'

/** Every source record is imported, skipped or failed: any difference is worth a look. */
function Accounted({ row }: { row: ValidationRow }) {
  const missing = row.source_count - row.imported - row.skipped - row.failed
  if (missing === 0 && row.failed === 0) {
    return (
      <ThemeIcon size={22} radius="xl" color="teal" variant="light" aria-label="All accounted for">
        <IconCheck size={14} />
      </ThemeIcon>
    )
  }
  const why = missing !== 0 ? `${count(Math.abs(missing))} ${missing > 0 ? 'not accounted for' : 'more than the source counted'} (records added or deleted in the source during the run?)` : `${count(row.failed)} failed`
  return (
    <Tooltip label={why} withArrow multiline w={260}>
      <ThemeIcon size={22} radius="xl" color="orange" variant="light" aria-label={why}>
        <IconAlertTriangle size={14} />
      </ThemeIcon>
    </Tooltip>
  )
}

function ValidationTable({ rows, labels }: { rows: ValidationRow[]; labels: Map<string, string> }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing={6} fz="sm" aria-label="Validation summary">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Object</Table.Th>
            <Table.Th ta="right">Source</Table.Th>
            <Table.Th ta="right">Imported</Table.Th>
            <Table.Th ta="right">Skipped</Table.Th>
            <Table.Th ta="right">Failed</Table.Th>
            <Table.Th ta="right">In Cairn</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.object} data-object={r.object}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {labels.get(r.object) ?? r.object}
                </Text>
                <Text size="xs" c="dimmed">
                  into {targetLabel(r.target).toLowerCase()}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{count(r.source_count)}</Table.Td>
              <Table.Td ta="right" fw={600}>
                {count(r.imported)}
              </Table.Td>
              <Table.Td ta="right" c={r.skipped ? undefined : 'dimmed'}>
                {count(r.skipped)}
              </Table.Td>
              <Table.Td ta="right" c={r.failed ? 'red.7' : 'dimmed'}>
                {count(r.failed)}
              </Table.Td>
              <Table.Td ta="right">{count(r.found_in_target)}</Table.Td>
              <Table.Td>
                <Accounted row={r} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

function ValidationChart({ rows, labels }: { rows: ValidationRow[]; labels: Map<string, string> }) {
  const data = rows.map((r) => ({ object: labels.get(r.object) ?? r.object, source: r.source_count, imported: r.imported }))
  return (
    <BarChart
      h={Math.max(220, rows.length * 44 + 60)}
      data={data}
      dataKey="object"
      orientation="vertical"
      series={[
        { name: 'source', label: 'In the source', color: 'gray.5' },
        { name: 'imported', label: 'Imported', color: 'teal.6' },
      ]}
      valueFormatter={(v) => v.toLocaleString()}
      withLegend
      gridAxis="x"
      tickLine="none"
      yAxisProps={{ width: 120 }}
      aria-label="Source count against imported, per object"
    />
  )
}

export function ValidationSummary({ rows, labels }: { rows: ValidationRow[]; labels: Map<string, string> }) {
  return (
    <Paper withBorder radius="md" shadow="xs" p="md">
      <Title order={4}>Validation</Title>
      <Text size="sm" c="dimmed" mb="md">
        What the source counted against what came over. “In Cairn” counts the records that carry an ID from this source after the run.
      </Text>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <ValidationTable rows={rows} labels={labels} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <ValidationChart rows={rows} labels={labels} />
        </Grid.Col>
      </Grid>
    </Paper>
  )
}
