// The pipeline: opportunity amounts summed by stage over the newest few pages of opportunities.
import { BarChart } from '@mantine/charts'
import { Paper, Skeleton, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { OPPORTUNITY_STAGES } from '../../../../src/records/kinds/opportunity.kind.ts'
import { cairn, call } from '../../api/client.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { humanize, type CrmRecord } from '../../kinds.ts'

const MAX_PAGES = 4

async function loadOpportunities(): Promise<{ records: CrmRecord[]; partial: boolean }> {
  const records: CrmRecord[] = []
  let cursor: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await call(() => cairn.GET('/api/v1/opportunities', { params: { query: { limit: 100, cursor } } }))
    records.push(...res.data)
    if (!res.has_more || !res.next_cursor) return { records, partial: false }
    cursor = res.next_cursor
  }
  return { records, partial: true }
}

export function PipelineChart() {
  const pipeline = useQuery({ queryKey: ['records', 'opportunities', 'pipeline'], queryFn: loadOpportunities, staleTime: 30_000 })
  const data = OPPORTUNITY_STAGES.map((stage) => ({
    stage: humanize(stage),
    amount: (pipeline.data?.records ?? []).filter((o) => o.stage === stage).reduce((sum, o) => sum + (Number(o.amount) || 0), 0),
  }))
  const total = data.reduce((s, d) => s + d.amount, 0)
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Title order={4}>Pipeline by stage</Title>
      <Text size="sm" c="dimmed" mb="md">
        Sum of opportunity amounts{pipeline.data?.partial ? ` (newest ${pipeline.data.records.length} opportunities)` : ''}
      </Text>
      {pipeline.isPending ? (
        <Skeleton height={260} />
      ) : pipeline.isError ? (
        <ErrorState title="Could not load the pipeline" error={pipeline.error} onRetry={() => void pipeline.refetch()} />
      ) : total === 0 ? (
        <Text size="sm" c="dimmed" py="xl" ta="center">
          No opportunity amounts yet. Add opportunities with an amount to see the pipeline.
        </Text>
      ) : (
        <BarChart
          h={260}
          data={data}
          dataKey="stage"
          series={[{ name: 'amount', label: 'Amount', color: 'teal.6' }]}
          valueFormatter={(v) => v.toLocaleString(undefined, { maximumFractionDigits: 0 })}
          tickLine="y"
        />
      )}
    </Paper>
  )
}
