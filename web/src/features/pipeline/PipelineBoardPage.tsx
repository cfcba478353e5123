// The pipeline board at /app/pipeline: opportunities as cards in one column per stage, in pipeline
// order, each column with its count and total over all its opportunities. Dragging a card to
// another column (mouse, touch, or keyboard: focus a card, Space, Left/Right, Space) changes its
// stage at once and rolls back with the error shown if the service refuses.
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core'
import { Alert, Badge, Button, EmptyState, Group, Paper, ScrollArea, Text } from '@mantine/core'
import { IconAlertCircle, IconList, IconPlus, IconTargetArrow } from '@tabler/icons-react'
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { OPPORTUNITY_STAGES, opportunityKind } from '../../../../src/web-contracts.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { humanize, recordTitle, type CrmRecord } from '../../kinds.ts'
import { formatCount } from '../records/useRecordCount.ts'
import { columnCoordinates } from './columnKeyboard.ts'
import { CardContent } from './OpportunityCard.tsx'
import { StageColumn } from './StageColumn.tsx'
import { formatAmounts } from './stageTotals.ts'
import { useBoardFilters, usePipelineSummary } from './usePipeline.ts'
import { ViewSwitcher } from '../lists/ViewSwitcher.tsx'
import { FieldFilters } from '../lists/FieldFilters.tsx'
import { ActiveFilterChips } from '../records/ActiveFilterChips.tsx'
import { useStageMove } from './useStageMove.ts'
import { OwnerFilter } from '../owners/OwnerFilter.tsx'

/** The pointer decides where a mouse drop lands; a keyboard drag has no pointer, so its card's box does. */
const collision: CollisionDetection = (args) => {
  const under = pointerWithin(args)
  return under.length > 0 ? under : rectIntersection(args)
}

interface DragData {
  card: CrmRecord
  stage: string
}

const name = (id: unknown, data: unknown) => (data ? recordTitle(opportunityKind, (data as DragData).card) : String(id))

const announcements: Announcements = {
  onDragStart: ({ active }) => `Picked up ${name(active.id, active.data.current)} in ${humanize((active.data.current as DragData).stage)}. Left and right arrows move it between stages, Space drops it, Escape cancels.`,
  onDragOver: ({ active, over }) => (over ? `${name(active.id, active.data.current)} is over ${humanize(String(over.id))}.` : `${name(active.id, active.data.current)} is not over a stage.`),
  onDragEnd: ({ active, over }) => (over ? `${name(active.id, active.data.current)} moved to ${humanize(String(over.id))}.` : `${name(active.id, active.data.current)} was dropped back.`),
  onDragCancel: ({ active }) => `Moving ${name(active.id, active.data.current)} was cancelled.`,
}

export function PipelineBoardPage() {
  const filters = useBoardFilters()
  const summary = usePipelineSummary(filters)
  const { move, failure, dismiss } = useStageMove(filters)
  const [params, setParams] = useSearchParams()
  const narrowed = Object.keys(filters).length > 0
  const setFilter = (name: string, value: string | null) => {
    const next = new URLSearchParams(params)
    if (value) next.set(name, value)
    else next.delete(name)
    setParams(next, { preventScrollReset: true })
  }
  // The owner filter is one of the board's filters (?owner_id=me), kept in the URL as a list's.
  const owner = filters.owner_id
  const setOwner = (value: string | null) => setFilter('owner_id', value)
  const [dragging, setDragging] = useState<CrmRecord | null>(null)
  const sensors = useSensors(
    // A few pixels of travel before a drag starts, so a click on the card's link is still a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnCoordinates, keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] } }),
  )
  const stages = summary.data?.stages.map((s) => s.stage).filter((s): s is string => s !== null) ?? [...OPPORTUNITY_STAGES]
  const open = summary.data?.stages.filter((s) => s.stage !== 'closed_won' && s.stage !== 'closed_lost') ?? []
  const openCount = open.reduce((n, s) => n + s.count, 0)

  const onDragStart = ({ active }: DragStartEvent) => setDragging((active.data.current as DragData).card)
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragging(null)
    const { card, stage: from } = active.data.current as DragData
    const to = over ? String(over.id) : null
    if (to && to !== from) move.mutate({ card, from, to })
  }

  return (
    <>
      <PageHeader
        eyebrow="Opportunities"
        title="Pipeline"
        badges={
          summary.data ? (
            <Badge variant="light" color="gray" size="lg" radius="sm" aria-label="Open opportunities">
              {formatCount(openCount)} open
            </Badge>
          ) : null
        }
        actions={
          <>
            <OwnerFilter value={owner} onChange={setOwner} />
            <Button component={Link} to={`/${opportunityKind.path}${owner ? `?owner_id=${encodeURIComponent(owner)}` : ''}`} variant="default" leftSection={<IconList size={16} />}>
              List view
            </Button>
            <Button component={Link} to={`/${opportunityKind.path}/new`} leftSection={<IconPlus size={16} />}>
              New opportunity
            </Button>
          </>
        }
      />
      <Group gap="sm" mb="md" wrap="wrap">
        <ViewSwitcher kind="pipeline" allLabel="Whole pipeline" withSort={false} />
        <FieldFilters kind={opportunityKind} values={filters} onFilter={setFilter} />
        {narrowed && (
          <Button variant="subtle" color="gray" onClick={() => setParams(new URLSearchParams(params.get('view') ? { view: params.get('view')! } : {}))}>
            Clear filters
          </Button>
        )}
      </Group>
      <ActiveFilterChips fields={opportunityKind.fields.filter((f) => f.filter)} values={filters} onRemove={(name) => setFilter(name, null)} />
      {summary.data?.total_count === 0 && !narrowed && (
        <Paper withBorder radius="md" shadow="xs" mb="md">
          <EmptyState
            py={40}
            icon={<IconTargetArrow size={26} />}
            variant="light"
            title="Your pipeline is empty"
            description="Opportunities you create, convert from leads or import show up here, one column per stage."
          >
            <EmptyState.Actions>
              <Button component={Link} to={`/${opportunityKind.path}/new`} leftSection={<IconPlus size={16} />}>
                New opportunity
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Paper>
      )}
      {summary.data && summary.data.total_count > 0 && (
        <Text size="sm" c="dimmed" mb="md" mt={-8}>
          {summary.data.amounts_visible ? `Open pipeline ${formatAmounts(open.flatMap((s) => s.amounts ?? []).reduce(sumByCurrency, []))}. ` : 'Amounts are hidden: reading them needs the erp:read scope. '}
          Drag a card to change its stage, or focus it and press Space, then the arrow keys.
        </Text>
      )}
      {failure && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title="Stage not changed" role="alert" withCloseButton onClose={dismiss} mb="md">
          {failure}
        </Alert>
      )}
      {summary.isError && <ErrorState title="Could not load the pipeline totals" error={summary.error} onRetry={() => void summary.refetch()} />}
      {/* Nothing to drag until there is an opportunity. */}
      {(summary.data?.total_count !== 0 || narrowed) && (
        <DndContext sensors={sensors} collisionDetection={collision} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setDragging(null)} accessibility={{ announcements }}>
          {/* A scrollbar that is always there: on a narrower screen the closed columns are off to the right. */}
          <ScrollArea type="always" scrollbars="x" offsetScrollbars="x" pb="xs">
            <Group align="stretch" gap="sm" wrap="nowrap" aria-label="Pipeline board" role="group">
              {stages.map((stage) => (
                <StageColumn key={stage} stage={stage} summary={summary.data?.stages.find((s) => s.stage === stage)} movingId={move.isPending ? move.variables.card.id : null} />
              ))}
            </Group>
          </ScrollArea>
          <DragOverlay dropAnimation={null}>
            {dragging ? (
              <Paper withBorder radius="md" p="sm" shadow="lg" style={{ cursor: 'grabbing', transform: 'rotate(2deg)' }}>
                <CardContent card={dragging} overlay />
              </Paper>
            ) : null}
          </DragOverlay>
        </DndContext>
      )}
    </>
  )
}

type Amount = { currency: string | null; total: string }
function sumByCurrency(acc: Amount[], a: Amount): Amount[] {
  const found = acc.find((x) => x.currency === a.currency)
  if (!found) return [...acc, { ...a }]
  found.total = (Number(found.total) + Number(a.total)).toFixed(2)
  return acc
}
