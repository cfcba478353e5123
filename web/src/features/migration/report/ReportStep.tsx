// Step 3: the analysis report. Readiness and record counts as charts first, then the objects, the
// field mapping, the risks, the timeline and what else was found; downloadable as JSON.
import { Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core'
import { IconArrowRight, IconDownload } from '@tabler/icons-react'
import type { UseQueryResult } from '@tanstack/react-query'
import { reportDownloadUrl, type AnalysisReport, type MigrationView } from '../../../api/migration.ts'
import { ErrorState } from '../../../components/ErrorState.tsx'
import { formatDateTime } from '../../../kinds.ts'
import { ENVIRONMENT_LABEL } from '../migrationText.ts'
import { FieldMappingDetails } from './FieldMappingDetails.tsx'
import { ObjectsTable } from './ObjectsTable.tsx'
import { ReadinessCard } from './ReadinessCard.tsx'
import { RecordCountsChart } from './RecordCountsChart.tsx'
import { RisksPanel } from './RisksPanel.tsx'
import { SourceFindings } from './SourceFindings.tsx'
import { TimelinePanel } from './TimelinePanel.tsx'

function ReportToolbar({ migration, report, onContinue }: { migration: MigrationView; report: AnalysisReport; onContinue?: () => void }) {
  const s = report.source
  return (
    <Paper withBorder radius="md" p="sm" px="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed">
          {s.environment ? `${ENVIRONMENT_LABEL[s.environment]} org` : 'Org'} {s.organization_id ?? ''} · API v{s.api_version} · analyzed{' '}
          {formatDateTime(report.generated_at)}
        </Text>
        <Group gap="xs">
          <Button component="a" href={reportDownloadUrl(migration.id)} download variant="default" size="xs" leftSection={<IconDownload size={14} />}>
            Download report (JSON)
          </Button>
          {onContinue && (
            <Button size="xs" rightSection={<IconArrowRight size={14} />} onClick={onContinue}>
              Continue to configure
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  )
}

export function ReportStep(props: { migration: MigrationView; report: UseQueryResult<AnalysisReport>; onContinue: () => void }) {
  const { migration, report, onContinue } = props
  if (report.isPending) {
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading the report">
        <Skeleton height={40} />
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Skeleton height={260} />
          <Skeleton height={260} />
        </SimpleGrid>
        <Skeleton height={320} />
      </Stack>
    )
  }
  if (report.isError) return <ErrorState title="Could not load the report" error={report.error} onRetry={() => void report.refetch()} />
  const r = report.data
  const canConfigure = migration.status === 'analyzed' || migration.status === 'configured'
  return (
    <Stack gap="lg">
      <ReportToolbar migration={migration} report={r} onContinue={canConfigure ? onContinue : undefined} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <ReadinessCard readiness={r.readiness} />
        <RecordCountsChart objects={r.objects} />
      </SimpleGrid>
      <ObjectsTable report={r} />
      <RisksPanel risks={r.risks} />
      <TimelinePanel timeline={r.timeline} phases={r.recommended_phases} />
      <SourceFindings report={r} />
      <FieldMappingDetails objects={r.objects} />
      {canConfigure && (
        <Group justify="flex-end">
          <Button rightSection={<IconArrowRight size={16} />} onClick={onContinue}>
            Continue to configure
          </Button>
        </Group>
      )}
    </Stack>
  )
}
