// How the run ended, in one banner: completed, with errors, failed or cancelled; after phase 1 of a
// phased run, the button that starts phase 2.
import { Alert, Button, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconPlayerPlay } from '@tabler/icons-react'
import { useRunMigration, type MigrationView } from '../../../api/migration.ts'
import { ErrorState } from '../../../components/ErrorState.tsx'
import { formatDateTime } from '../../../kinds.ts'
import { count, plural } from '../migrationText.ts'

function NextPhase({ migration }: { migration: MigrationView }) {
  const run = useRunMigration(migration.id)
  return (
    <Stack gap="xs" align="flex-start">
      <Button leftSection={<IconPlayerPlay size={16} />} loading={run.isPending} onClick={() => run.mutate()}>
        Run phase {migration.phase!.current + 1}
      </Button>
      {run.isError && <ErrorState title="Could not start the next phase" error={run.error} />}
    </Stack>
  )
}

export function RunResult({ migration: m }: { migration: MigrationView }) {
  const t = m.totals
  const imported = t.created + t.updated + t.linked
  const when = m.finished_at ? ` on ${formatDateTime(m.finished_at)}` : ''
  if (m.status === 'failed') {
    return (
      <Alert color="red" variant="light" icon={<IconCircleX size={18} />} title="The migration failed" role="alert">
        <Text size="sm">
          {m.status_reason ?? 'It stopped with an error.'} {count(imported)} records were imported before it stopped{when}; they stay in Cairn.
        </Text>
      </Alert>
    )
  }
  if (m.status === 'cancelled') {
    return (
      <Alert color="gray" variant="light" icon={<IconCircleX size={18} />} title="The migration was cancelled">
        <Text size="sm">
          {count(imported)} records were imported before it stopped{when}; they stay in Cairn. Start a new migration to import the rest.
        </Text>
      </Alert>
    )
  }
  const phaseDone = m.phase?.next_available
  const withErrors = m.status === 'completed_with_errors'
  const title = phaseDone ? `Phase ${m.phase!.current} of ${m.phase!.total} is done` : withErrors ? 'Migration completed with errors' : 'Migration completed'
  return (
    <Alert
      color={withErrors ? 'orange' : 'teal'}
      variant="light"
      icon={withErrors ? <IconAlertTriangle size={18} /> : <IconCircleCheck size={18} />}
      title={title}
      data-testid="run-result"
    >
      <Stack gap="sm">
        <Text size="sm">
          {count(imported)} records imported{when}
          {t.failed > 0 && `, ${plural(t.failed, 'record')} failed`}
          {t.skipped > 0 && `, ${count(t.skipped)} skipped`}
          {t.warnings > 0 && `, ${plural(t.warnings, 'warning')}`}. {t.failed + t.skipped > 0 ? 'Each one is listed below with its reason and source data.' : ''}
          {phaseDone && ' Check the accounts and contacts in Cairn, then import the rest.'}
        </Text>
        {phaseDone && <NextPhase migration={m} />}
      </Stack>
    </Alert>
  )
}
