// Step 4: what to import and how. Starts from the saved configuration or the analysis' proposal;
// "Save and continue" stores it (PUT /config) and moves on to Migrate. Each validation error is
// shown next to its setting and listed in a summary. Once the import has started, the configuration
// it used stays readable but locked.
import { Alert, Button, Group, List, Skeleton, Stack, Text } from '@mantine/core'
import { IconAlertCircle, IconArrowRight, IconLock } from '@tabler/icons-react'
import type { UseQueryResult } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useSaveConfig, type AnalysisReport, type MigrationConfig, type MigrationView } from '../../../api/migration.ts'
import { ErrorState } from '../../../components/ErrorState.tsx'
import { DedupRules } from './DedupRules.tsx'
import { FieldMappingEditor } from './FieldMappingEditor.tsx'
import { initialConfig, sameConfig, sortErrors } from './configForm.ts'
import { ObjectSelection } from './ObjectSelection.tsx'
import { RelationshipOptions } from './RelationshipOptions.tsx'
import { RunOptions } from './RunOptions.tsx'

function ErrorSummary({ all }: { all: Array<{ where: string; message: string }> }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={`The configuration has ${all.length} problem${all.length > 1 ? 's' : ''}`} role="alert">
      <List size="sm" spacing={2}>
        {all.map((e) => (
          <List.Item key={`${e.where}: ${e.message}`}>
            <Text span fw={600} size="sm">
              {e.where}:
            </Text>{' '}
            {e.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  )
}

function ConfigureForm({ migration, report, onSaved }: { migration: MigrationView; report: AnalysisReport; onSaved: () => void }) {
  const [config, setConfig] = useState<MigrationConfig>(() => initialConfig(migration, report))
  const save = useSaveConfig(migration.id)
  const errors = sortErrors(save.error, save.variables)
  const locked = migration.status !== 'analyzed' && migration.status !== 'configured'
  const saved = migration.config !== null && sameConfig(migration.config, config)
  const sectionProps = { config, report, errors, onChange: setConfig }
  // A refused save is reported at the top of a long form: bring the summary into view.
  const top = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (save.isError) top.current?.scrollIntoView({ behavior: 'smooth', block: 'start' })
  }, [save.isError, save.error])

  return (
    <Stack gap="lg" ref={top} style={{ scrollMarginTop: 80 }}>
      {locked && (
        <Alert color="gray" variant="light" icon={<IconLock size={18} />} title="This is the configuration the import used">
          It can no longer change once the import has started. To import with other settings, start a new migration.
        </Alert>
      )}
      {errors && <ErrorSummary all={errors.all} />}
      {save.isError && !errors && <ErrorState title="Could not save the configuration" error={save.error} />}
      <fieldset disabled={locked} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg">
          <ObjectSelection {...sectionProps} />
          <RelationshipOptions {...sectionProps} />
          <DedupRules {...sectionProps} />
          <RunOptions {...sectionProps} />
        </Stack>
      </fieldset>
      <FieldMappingEditor {...sectionProps} locked={locked} />
      {!locked && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {saved ? 'Saved. You can change it until the import starts.' : migration.config ? 'You have unsaved changes.' : 'Nothing is imported until you start the migration.'}
          </Text>
          <Group>
            {saved ? (
              <Button rightSection={<IconArrowRight size={16} />} onClick={onSaved}>
                Continue to migrate
              </Button>
            ) : (
              <Button rightSection={<IconArrowRight size={16} />} loading={save.isPending} onClick={() => save.mutate(config, { onSuccess: onSaved })}>
                Save and continue
              </Button>
            )}
          </Group>
        </Group>
      )}
    </Stack>
  )
}

export function ConfigureStep(props: { migration: MigrationView; report: UseQueryResult<AnalysisReport>; onSaved: () => void }) {
  const { report } = props
  if (report.isPending) {
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading the configuration">
        <Skeleton height={220} />
        <Skeleton height={160} />
      </Stack>
    )
  }
  if (report.isError) return <ErrorState title="Could not load the analysis to configure from" error={report.error} onRetry={() => void report.refetch()} />
  return <ConfigureForm migration={props.migration} report={report.data} onSaved={props.onSaved} />
}
