// The overview's pipeline: every opportunity's amount summed by stage in pipeline order, one bar
// series per currency (GET /opportunities/pipeline, computed by the database over all of them);
// counts instead when amounts are hidden (no erp:read).
import { BarChart } from '@mantine/charts'
import { Anchor, Group, Paper, Skeleton, Text, Title } from '@mantine/core'
import { Link } from 'react-router'
import { ErrorState } from '../../components/ErrorState.tsx'
import { humanize } from '../../kinds.ts'
import { formatMoney } from '../pipeline/stageTotals.ts'
import { usePipelineSummary, type PipelineSummary } from '../pipeline/usePipeline.ts'

const COLORS = ['teal.6', 'blue.6', 'violet.6', 'orange.6', 'pink.6']

const CLOSED = new Set(['closed_won', 'closed_lost'])

/** Open pipeline and won so far, in one currency. */
function Headline({ summary, currency }: { summary: PipelineSummary; currency: string | null }) {
  const sum = (keep: (stage: string | null) => boolean) =>
    summary.stages.filter((s) => keep(s.stage)).reduce((n, s) => n + (s.amounts ?? []).reduce((m, a) => m + Number(a.total), 0), 0)
  const figures = [
    { label: 'Open pipeline', value: sum((s) => !CLOSED.has(s ?? '')) },
    { label: 'Won', value: sum((s) => s === 'closed_won') },
  ]
  return (
    <>
      {figures.map((f) => (
        <div key={f.label}>
          <Text size="xs" c="dimmed" fw={500}>
            {f.label}
          </Text>
          <Text fw={700} size="lg" lh={1.2}>
            {formatMoney(f.value, currency)}
          </Text>
        </div>
      ))}
    </>
  )
}

export function PipelineChart() {
  const pipeline = usePipelineSummary()
  const summary = pipeline.data
  const visible = summary?.amounts_visible ?? true
  const currencies = [...new Set(summary?.stages.flatMap((s) => (s.amounts ?? []).map((a) => a.currency ?? '')) ?? [])]
  const data = (summary?.stages ?? []).map((s) => ({
    stage: s.stage ? humanize(s.stage) : 'No stage',
    count: s.count,
    ...Object.fromEntries(currencies.map((c) => [c || 'amount', Number(s.amounts?.find((a) => (a.currency ?? '') === c)?.total ?? 0)])),
  }))
  const series = visible
    ? currencies.map((c, i) => ({ name: c || 'amount', label: c || 'Amount', color: COLORS[i % COLORS.length]! }))
    : [{ name: 'count', label: 'Opportunities', color: 'teal.6' }]
  // One currency: totals add up, and the axis and headline can say which.
  const single = currencies.length === 1 ? currencies[0] || null : currencies.length === 0 ? null : undefined

  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={4}>Pipeline by stage</Title>
          <Text size="sm" c="dimmed" mb="md">
            {visible ? `Sum of opportunity amounts${currencies.length > 1 ? ', per currency' : ''}` : 'Number of opportunities (amounts need the erp:read scope)'}
            {summary ? ` · ${summary.total_count.toLocaleString()} opportunities` : ''}
          </Text>
        </div>
        <Group gap="xl" align="flex-start">
          {visible && currencies.length === 1 && summary && <Headline summary={summary} currency={single ?? null} />}
          <Anchor component={Link} to="/pipeline" size="sm">
            Open the board
          </Anchor>
        </Group>
      </Group>
      {pipeline.isPending ? (
        <Skeleton height={260} />
      ) : pipeline.isError ? (
        <ErrorState title="Could not load the pipeline" error={pipeline.error} onRetry={() => void pipeline.refetch()} />
      ) : summary!.total_count === 0 || (visible && currencies.length === 0) ? (
        <Text size="sm" c="dimmed" py="xl" ta="center">
          {summary!.total_count === 0 ? 'No opportunities yet.' : 'No opportunity amounts yet.'} Add opportunities with an amount to see the pipeline.
        </Text>
      ) : (
        <BarChart
          h={260}
          data={data}
          dataKey="stage"
          series={series}
          type={series.length > 1 ? 'stacked' : 'default'}
          withLegend={series.length > 1}
          valueFormatter={(v) => (visible ? formatMoney(v, single ?? null) : v.toLocaleString())}
          tickLine="y"
        />
      )}
    </Paper>
  )
}
