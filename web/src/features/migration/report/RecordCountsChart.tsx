// Records per source object as bars, coloured by how well the object maps (automatic, partial,
// manual review), so counts and readiness read together.
import { BarChart } from '@mantine/charts'
import { Paper, Text, Title } from '@mantine/core'
import type { ObjectAnalysis } from '../../../api/migration.ts'
import { COMPATIBILITY, count } from '../migrationText.ts'

const LEVELS = ['auto', 'partial', 'manual_review'] as const

export function RecordCountsChart({ objects }: { objects: ObjectAnalysis[] }) {
  const counted = objects.filter((o) => o.record_count > 0).sort((a, b) => b.record_count - a.record_count)
  const data = counted.map((o) => ({
    object: o.label,
    ...Object.fromEntries(LEVELS.map((level) => [level, o.compatibility === level ? o.record_count : 0])),
  }))
  const present = LEVELS.filter((level) => counted.some((o) => o.compatibility === level))
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg" h="100%">
      <Title order={4}>Records per object</Title>
      <Text size="sm" c="dimmed" mb="md">
        {count(counted.reduce((n, o) => n + o.record_count, 0))} records in {counted.length} objects, coloured by how they map
      </Text>
      {data.length === 0 ? (
        <Text size="sm" c="dimmed" py="xl" ta="center">
          The source has no records in the objects Cairn can read.
        </Text>
      ) : (
        <BarChart
          h={Math.max(180, data.length * 30 + 60)}
          data={data}
          dataKey="object"
          type="stacked"
          orientation="vertical"
          series={present.map((level) => ({ name: level, label: COMPATIBILITY[level].label, color: COMPATIBILITY[level].chart }))}
          valueFormatter={(v) => v.toLocaleString()}
          withLegend
          gridAxis="x"
          tickLine="none"
          yAxisProps={{ width: 130 }}
          aria-label="Records per object"
        />
      )}
    </Paper>
  )
}
