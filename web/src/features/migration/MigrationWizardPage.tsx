// One migration (/app/migration/:id): the five-step wizard. The step shown follows the migration's
// status as it changes (live while work is under way); earlier steps can be opened for review, and
// stay open until the status moves the wizard on.
import { Badge, Skeleton, Stack } from '@mantine/core'
import { useState } from 'react'
import { useParams } from 'react-router'
import { ApiError } from '../../api/client.ts'
import { useMigration, useMigrationReport, type MigrationView } from '../../api/migration.ts'
import { useMe } from '../../api/queries.ts'
import { AdminsOnly } from '../../components/AdminsOnly.tsx'
import { ErrorState } from '../../components/ErrorState.tsx'
import { NotFoundPage } from '../../components/NotFoundPage.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { AnalyzeStep } from './analyze/AnalyzeStep.tsx'
import { ConfigureStep } from './configure/ConfigureStep.tsx'
import { ConnectedSummary } from './connect/ConnectedSummary.tsx'
import { MigrateStep } from './migrate/MigrateStep.tsx'
import { MigrationStatusBadge } from './MigrationStatusBadge.tsx'
import { currentStep, ENVIRONMENT_LABEL, STEP } from './migrationText.ts'
import { BACK_TO_MIGRATIONS } from './NewMigrationPage.tsx'
import { ReportStep } from './report/ReportStep.tsx'
import { WizardStepper } from './WizardStepper.tsx'

/** The furthest step that can be opened: once analyzed, all of them (a run may use the defaults). */
function reachedStep(m: MigrationView, current: number): number {
  return m.status === 'analyzed' ? STEP.migrate : current
}

function Wizard({ migration: m }: { migration: MigrationView }) {
  const current = currentStep(m)
  // A step picked by the person holds only while the status still points at the same step.
  const [picked, setPicked] = useState<{ step: number; from: number } | null>(null)
  const active = picked && picked.from === current ? picked.step : current
  const open = (step: number) => setPicked({ step, from: current })
  const report = useMigrationReport(m.id, m.analyzed_at !== null)

  return (
    <WizardStepper migration={m} active={active} reached={reachedStep(m, current)} onStepClick={open}>
      {active === STEP.connect && <ConnectedSummary migration={m} />}
      {active === STEP.analyze && <AnalyzeStep migration={m} onShowReport={() => open(STEP.report)} />}
      {active === STEP.report && <ReportStep migration={m} report={report} onContinue={() => open(STEP.configure)} />}
      {active === STEP.configure && <ConfigureStep migration={m} report={report} onSaved={() => open(STEP.migrate)} />}
      {active === STEP.migrate && <MigrateStep migration={m} report={report.data} onConfigure={() => open(STEP.configure)} />}
    </WizardStepper>
  )
}

export function MigrationWizardPage() {
  const { id = '' } = useParams()
  const me = useMe()
  const migration = useMigration(id)

  if (me.data?.role !== 'admin' || (migration.error instanceof ApiError && migration.error.code === 'admin_required')) {
    return (
      <>
        <PageHeader eyebrow={BACK_TO_MIGRATIONS} title="Migration" />
        <AdminsOnly title="Only administrators can migrate data" description="A migration imports records for the whole organization, so only its administrators can follow one." />
      </>
    )
  }
  if (migration.isPending) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the migration">
        <Skeleton height={28} width="45%" />
        <Skeleton height={56} />
        <Skeleton height={240} />
      </Stack>
    )
  }
  if (migration.isError) {
    if (migration.error instanceof ApiError && (migration.error.status === 404 || migration.error.status === 400)) return <NotFoundPage what="migration" />
    return (
      <>
        <PageHeader eyebrow={BACK_TO_MIGRATIONS} title="Migration" />
        <ErrorState title="Could not load this migration" error={migration.error} onRetry={() => void migration.refetch()} />
      </>
    )
  }
  const m = migration.data
  return (
    <>
      <PageHeader
        eyebrow={BACK_TO_MIGRATIONS}
        title={<span style={{ fontFamily: 'var(--mantine-font-family-monospace)', fontSize: '0.8em', wordBreak: 'break-all' }}>{m.src_instance_url.replace(/^https?:\/\//, '')}</span>}
        badges={
          <>
            {m.environment && <Badge variant="default">{ENVIRONMENT_LABEL[m.environment]}</Badge>}
            <MigrationStatusBadge migration={m} />
          </>
        }
      />
      <Wizard key={m.id} migration={m} />
    </>
  )
}
