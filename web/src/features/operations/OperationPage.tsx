// One operation (/app/operations/:id): who made it and how, when, what it changed (counts per
// action, the kinds of records), how its undo went (progress, conflicts left alone), and Undo.
import type { ReactNode } from 'react'
import { Anchor, Breadcrumbs, Group, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core'
import { Link, useParams } from 'react-router'
import { ApiError } from '../../api/client.ts'
import { useOperation, type Operation } from '../../api/operations.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { NotFoundPage } from '../../components/NotFoundPage.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { formatDateTime } from '../../kinds.ts'
import { actorText, kindsText } from './actorText.ts'
import { Figure } from '../../components/Figure.tsx'
import { ActorName, ChannelBadge } from './ActorName.tsx'
import { OperationStateBadge } from './OperationStateBadge.tsx'
import { RevertOutcome } from './RevertOutcome.tsx'
import { UndoOperationButton } from './UndoOperationButton.tsx'

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  )
}

function OperationSummary({ op }: { op: Operation }) {
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
          <Fact label="By">
            <ActorName actor={op.actor} />
            {op.actor.user?.email && (
              <Text size="xs" c="dimmed">
                {op.actor.user.email}
              </Text>
            )}
          </Fact>
          <Fact label="Channel">
            <ChannelBadge channel={op.channel} size="md" />
          </Fact>
          <Fact label="When">
            <Text size="sm">{formatDateTime(op.started_at)}</Text>
            {op.ended_at && op.ended_at !== op.started_at && (
              <Text size="xs" c="dimmed">
                until {formatDateTime(op.ended_at)}
              </Text>
            )}
          </Fact>
          <Fact label="Records">
            <Text size="sm">{kindsText(op.kinds) || '—'}</Text>
          </Fact>
        </SimpleGrid>
      </Paper>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Created" value={op.counts.created} color="teal.8" />
        <Figure label="Updated" value={op.counts.updated} color="blue.8" />
        <Figure label="Deleted" value={op.counts.deleted} color="red.7" />
        <Figure label="Restored" value={op.counts.restored} color="teal.8" />
      </SimpleGrid>
      {op.reverts && (
        <Text size="sm">
          This operation undid{' '}
          <Anchor component={Link} to={`/operations/${op.reverts}`}>
            an earlier operation
          </Anchor>
          .
        </Text>
      )}
      {op.channel === 'import' && (
        <Text size="sm">
          <Anchor component={Link} to={`/imports/${op.id}`}>
            Open the import
          </Anchor>{' '}
          to see its file, rows and issues.
        </Text>
      )}
      {op.revert && (
        <Paper withBorder radius="md" p="md" aria-label="Undo">
          <Text fw={600} size="sm" mb="sm">
            Undo
          </Text>
          <RevertOutcome status={op.revert} />
        </Paper>
      )}
    </Stack>
  )
}

export function OperationPage() {
  const { id } = useParams()
  const op = useOperation(id ?? null)
  const crumbs = (
    <Breadcrumbs mb="xs" fz="sm">
      <Anchor component={Link} to="/operations" size="sm">
        Operations
      </Anchor>
      <Text size="sm" c="dimmed">
        {op.data ? formatDateTime(op.data.started_at) : '…'}
      </Text>
    </Breadcrumbs>
  )
  if (!id) return <NotFoundPage />
  if (op.isPending) {
    return (
      <Stack aria-busy="true">
        {crumbs}
        <Skeleton height={34} width={320} />
        <Skeleton height={120} />
      </Stack>
    )
  }
  if (op.isError) {
    if (op.error instanceof ApiError && op.error.status === 404) return <NotFoundPage what="operation" />
    return (
      <>
        {crumbs}
        <ErrorState title="Could not load this operation" error={op.error} onRetry={() => void op.refetch()} />
      </>
    )
  }
  return (
    <>
      {crumbs}
      <PageHeader
        eyebrow="Operation"
        title={`${actorText(op.data.actor)}`}
        badges={
          <Group gap="xs">
            <OperationStateBadge op={op.data} />
          </Group>
        }
        actions={<UndoOperationButton operationId={op.data.id} label="Undo this operation" quietWhenUndone />}
      />
      <OperationSummary op={op.data} />
    </>
  )
}
