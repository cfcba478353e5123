// One stage of the board: its name, count and total (from the pipeline summary, so they cover
// every opportunity, not only the loaded cards), its cards newest first, and "Load more".
import { useDroppable } from '@dnd-kit/core'
import { Badge, Button, Group, Paper, ScrollArea, Skeleton, Stack, Text } from '@mantine/core'
import { ErrorState } from '../../components/ErrorState.tsx'
import { humanize } from '../../kinds.ts'
import { formatCount } from '../records/useRecordCount.ts'
import { OpportunityCard } from './OpportunityCard.tsx'
import { formatAmounts, stageColor } from './stageTotals.ts'
import { useStageColumn, type PipelineStage } from './usePipeline.ts'

export function StageColumn({ stage, owner, summary, movingId }: { stage: string; owner?: string; summary: PipelineStage | undefined; movingId: string | null }) {
  const { setNodeRef, isOver } = useDroppable({ id: stage })
  const column = useStageColumn(stage, owner)
  const cards = column.data?.pages.flatMap((p) => p.data) ?? []
  const color = stageColor(stage)
  return (
    <Paper
      ref={setNodeRef}
      component="section"
      aria-label={`${humanize(stage)} stage`}
      data-stage={stage}
      data-over={isOver || undefined}
      radius="md"
      p="xs"
      withBorder
      bg={isOver ? `var(--mantine-color-${color}-light)` : 'var(--mantine-color-gray-1)'}
      style={{
        flex: '0 0 236px',
        // Tall enough to drop on anywhere, however few cards a stage has.
        minHeight: 'calc(100vh - 250px)',
        display: 'flex',
        flexDirection: 'column',
        borderTop: `3px solid var(--mantine-color-${color}-filled)`,
        outline: isOver ? `2px dashed var(--mantine-color-${color}-filled)` : undefined,
        transition: 'background 120ms',
      }}
    >
      <Stack gap={2} px={6} pt={4} pb="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm">
            {humanize(stage)}
          </Text>
          <Badge variant="light" color={summary?.count ? color : 'gray'} radius="sm" aria-label={`${summary?.count ?? 0} opportunities`}>
            {summary ? formatCount(summary.count) : '…'}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed" fw={500} data-total>
          {summary?.amounts ? formatAmounts(summary.amounts) : summary ? '\u00a0' : ''}
        </Text>
      </Stack>
      <ScrollArea.Autosize mah="calc(100vh - 330px)" type="hover" offsetScrollbars>
        <Stack gap="xs" p={2} mih={120}>
          {column.isPending ? (
            [0, 1].map((i) => <Skeleton key={i} height={84} radius="md" />)
          ) : column.isError ? (
            <ErrorState title="Could not load" error={column.error} onRetry={() => void column.refetch()} />
          ) : cards.length === 0 ? (
            <Text size="xs" c="dimmed" ta="center" py="lg" style={{ border: '1px dashed var(--mantine-color-gray-4)', borderRadius: 8 }}>
              No opportunities
            </Text>
          ) : (
            cards.map((card) => <OpportunityCard key={card.id} card={card} stage={stage} moving={card.id === movingId} />)
          )}
          {column.hasNextPage && (
            <Button variant="subtle" size="xs" onClick={() => void column.fetchNextPage()} loading={column.isFetchingNextPage}>
              Load more
            </Button>
          )}
        </Stack>
      </ScrollArea.Autosize>
    </Paper>
  )
}
