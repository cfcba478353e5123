// Step 5: start the import, follow it live (overall and per object, paused banner, Cancel), and at
// the end the result, the validation summary and the records to look at.
import { Stack } from '@mantine/core'
import type { AnalysisReport, MigrationView } from '../../../api/migration.ts'
import { IssuesTable } from './IssuesTable.tsx'
import { ObjectProgressTable } from './ObjectProgressTable.tsx'
import { ReadyToStart } from './ReadyToStart.tsx'
import { RunResult } from './RunResult.tsx'
import { PausedBanner, RunOverview } from './RunOverview.tsx'
import { ValidationSummary } from './ValidationSummary.tsx'

export function MigrateStep(props: { migration: MigrationView; report: AnalysisReport | undefined; onConfigure: () => void }) {
  const { migration: m, report } = props
  const labels = new Map(report?.objects.map((o) => [o.name, o.label]) ?? [])
  if (m.status === 'analyzed' || m.status === 'configured') return <ReadyToStart migration={m} report={report} onConfigure={props.onConfigure} />
  const working = m.status === 'running' || m.status === 'paused'
  return (
    <Stack gap="lg">
      {!working && <RunResult migration={m} />}
      {m.status === 'paused' && <PausedBanner migration={m} />}
      <RunOverview migration={m} />
      {m.progress.length > 0 && <ObjectProgressTable progress={m.progress} labels={labels} run={m.status} />}
      {m.validation && <ValidationSummary rows={m.validation} labels={labels} />}
      {!working && m.progress.length > 0 && <IssuesTable migration={m} labels={labels} />}
    </Stack>
  )
}
