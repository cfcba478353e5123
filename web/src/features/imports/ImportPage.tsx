// One CSV import (/app/imports/:id): its file and progress, what it created and updated, its
// issues, and "Undo this import" (the import run is one operation, with the import's id), which
// deletes what it created and sets back what it updated, in the background, with progress.
import { Anchor, Breadcrumbs, Group, Paper, Skeleton, Stack, Text } from '@mantine/core'
import { Link, useParams } from 'react-router'
import { ApiError } from '../../api/client.ts'
import { isRunning, useImport } from '../../api/imports.ts'
import { useOperation } from '../../api/operations.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { NotFoundPage } from '../../components/NotFoundPage.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { formatDateTime, kindUiByPath } from '../../kinds.ts'
import { OperationStateBadge } from '../operations/OperationStateBadge.tsx'
import { RevertOutcome } from '../operations/RevertOutcome.tsx'
import { UndoOperationButton } from '../operations/UndoOperationButton.tsx'
import { ImportProgress } from './ImportProgress.tsx'

export function ImportPage() {
  const { id } = useParams()
  const imp = useImport(id ?? null)
  const running = isRunning(imp.data)
  // The run's operation exists once it has written something.
  const op = useOperation(imp.data && !running && imp.data.created + imp.data.updated > 0 ? imp.data.id : null)
  const kind = kindUiByPath(imp.data?.kind)?.kind
  const crumbs = (
    <Breadcrumbs mb="xs" fz="sm">
      {kind ? (
        <Anchor component={Link} to={`/${kind.path}`} size="sm">
          {kind.labelPlural}
        </Anchor>
      ) : (
        <Text size="sm">Imports</Text>
      )}
      <Text size="sm" c="dimmed">
        {imp.data?.file_name ?? 'Import'}
      </Text>
    </Breadcrumbs>
  )
  if (!id) return <NotFoundPage />
  if (imp.isPending) {
    return (
      <Stack aria-busy="true">
        {crumbs}
        <Skeleton height={34} width={320} />
        <Skeleton height={200} />
      </Stack>
    )
  }
  if (imp.isError) {
    if (imp.error instanceof ApiError && imp.error.status === 404) return <NotFoundPage what="import" />
    return (
      <>
        {crumbs}
        <ErrorState title="Could not load this import" error={imp.error} onRetry={() => void imp.refetch()} />
      </>
    )
  }
  const data = imp.data
  return (
    <>
      {crumbs}
      <PageHeader
        eyebrow={`Import of ${kind?.labelPlural.toLowerCase() ?? data.kind}`}
        title={data.file_name ?? 'CSV import'}
        badges={op.data && <OperationStateBadge op={op.data} />}
        actions={op.data && <UndoOperationButton operationId={data.id} label="Undo this import" color="red" variant="light" quietWhenUndone />}
      />
      <Text size="sm" c="dimmed" mt={-8} mb="lg">
        Started {formatDateTime(data.started_at ?? data.created_at)}
        {data.finished_at && `, ended ${formatDateTime(data.finished_at)}`}.{' '}
        {op.data && (
          <Anchor component={Link} to={`/operations/${data.id}`} size="sm">
            See it among the operations
          </Anchor>
        )}
      </Text>
      <Stack gap="lg" maw={860}>
        <Paper withBorder radius="md" p="lg">
          <ImportProgress imp={data} />
        </Paper>
        {op.data?.revert && (
          <Paper withBorder radius="md" p="lg" aria-label="Undo">
            <Group mb="sm">
              <Text fw={600} size="sm">
                Undo
              </Text>
            </Group>
            <RevertOutcome status={op.data.revert} />
          </Paper>
        )}
      </Stack>
    </>
  )
}
