// The five steps of a migration as a Mantine Stepper. The step shown is `active`; steps up to
// `reached` can be opened (earlier ones for review), and each step's caption says where it stands.
import { Stepper } from '@mantine/core'
import { IconCheck } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import { isWorking, type MigrationView } from '../../api/migration.ts'
import { ENVIRONMENT_LABEL, MIGRATION_STATUS, percent, STEP, WIZARD_STEPS } from './migrationText.ts'

function captions(m: MigrationView | undefined): string[] {
  if (!m) return ['Choose the source', 'Reads the source', 'Readiness and risks', 'Objects and rules', 'Import and validate']
  const analysisEnded = !m.analyzed_at && (m.status === 'failed' || m.status === 'cancelled')
  const runStarted = m.progress.length > 0
  return [
    m.environment ? `${ENVIRONMENT_LABEL[m.environment]} connected` : 'Connected',
    m.status === 'analyzing' ? 'In progress' : analysisEnded ? MIGRATION_STATUS[m.status].label : 'Done',
    m.summary ? `Readiness ${m.summary.readiness}` : 'Readiness and risks',
    m.config ? (runStarted ? 'Used for the run' : 'Saved') : 'Objects and rules',
    m.status === 'running' ? `Importing · ${percent(m.totals.processed, m.totals.total)}%` : runStarted || m.status === 'configured' ? MIGRATION_STATUS[m.status].label : 'Import and validate',
  ]
}

/** Which steps are behind the migration; the Stepper only knows the one shown, so later done steps get a check icon. */
function doneSteps(m: MigrationView | undefined): boolean[] {
  if (!m) return [false, false, false, false, false]
  const ran = m.progress.length > 0
  const finished = (m.status === 'completed' || m.status === 'completed_with_errors') && !m.phase?.next_available
  return [true, m.analyzed_at !== null, m.config !== null || ran, m.config !== null, finished]
}

export function WizardStepper(props: { migration?: MigrationView; active: number; reached: number; onStepClick?: (step: number) => void; children: ReactNode }) {
  const { migration, active, reached } = props
  const texts = captions(migration)
  const done = doneSteps(migration)
  const working = isWorking(migration)
  return (
    <Stepper active={active} onStepClick={props.onStepClick} allowNextStepsSelect={false} size="sm" contentPadding="lg" aria-label="Migration steps">
      {WIZARD_STEPS.map((label, step) => (
        <Stepper.Step
          key={label}
          label={label}
          description={texts[step]}
          allowStepSelect={step <= reached && step !== active}
          icon={step > active && done[step] ? <IconCheck size={16} /> : undefined}
          loading={working && ((step === STEP.analyze && migration?.status === 'analyzing') || (step === STEP.migrate && migration?.status !== 'analyzing'))}
          aria-label={`${label}: ${texts[step]}`}
        >
          {step === active && <section aria-label={label}>{props.children}</section>}
        </Stepper.Step>
      ))}
    </Stepper>
  )
}
