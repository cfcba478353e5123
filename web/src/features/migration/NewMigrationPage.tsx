// /app/migration/new: the wizard before a migration exists, at step 1 (Connect).
import { Anchor } from '@mantine/core'
import { Link } from 'react-router'
import { useMe } from '../../api/queries.ts'
import { AdminsOnly } from '../../components/AdminsOnly.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { ConnectStep } from './connect/ConnectStep.tsx'
import { STEP } from './migrationText.ts'
import { WizardStepper } from './WizardStepper.tsx'

export const BACK_TO_MIGRATIONS = (
  <Anchor component={Link} to="/migration" c="dimmed" inherit underline="hover">
    Migration
  </Anchor>
)

export function NewMigrationPage() {
  const me = useMe()
  if (me.data?.role !== 'admin') {
    return (
      <>
        <PageHeader eyebrow={BACK_TO_MIGRATIONS} title="New migration" />
        <AdminsOnly title="Only administrators can migrate data" description="A migration imports records for the whole organization, so only its administrators can start one." />
      </>
    )
  }
  return (
    <>
      <PageHeader eyebrow={BACK_TO_MIGRATIONS} title="New migration" />
      <WizardStepper active={STEP.connect} reached={STEP.connect}>
        <ConnectStep />
      </WizardStepper>
    </>
  )
}
