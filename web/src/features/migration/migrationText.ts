// Plain-language text of the migration wizard: status, compatibility and severity labels with
// their colours, the wizard step a migration is at, and numbers and durations as people read them.
import { kindsByName } from '../../../../src/web-contracts.ts'
import type { KindName } from '../../kinds.ts'
import type { FieldMapping, MigrationStatus, MigrationView, ObjectAnalysis, ObjectProgress, RiskItem, SourceEnvironment } from '../../api/migration.ts'

interface Labelled {
  label: string
  color: string
}

export const MIGRATION_STATUS: Record<MigrationStatus, Labelled> = {
  analyzing: { label: 'Analyzing', color: 'blue' },
  analyzed: { label: 'Analyzed', color: 'cyan' },
  configured: { label: 'Ready to run', color: 'cyan' },
  running: { label: 'Importing', color: 'blue' },
  paused: { label: 'Paused', color: 'yellow' },
  completed: { label: 'Completed', color: 'teal' },
  completed_with_errors: { label: 'Completed with errors', color: 'orange' },
  failed: { label: 'Failed', color: 'red' },
  cancelled: { label: 'Cancelled', color: 'gray' },
}

export const OBJECT_STATUS: Record<ObjectProgress['status'], Labelled> = {
  pending: { label: 'Waiting', color: 'gray' },
  running: { label: 'Importing', color: 'blue' },
  completed: { label: 'Done', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
  skipped: { label: 'Skipped', color: 'gray' },
  not_run: { label: 'Not run', color: 'gray' },
}

export const COMPATIBILITY: Record<ObjectAnalysis['compatibility'], Labelled & { chart: string }> = {
  auto: { label: 'Automatic', color: 'teal', chart: 'teal.6' },
  partial: { label: 'Partial', color: 'yellow', chart: 'yellow.5' },
  manual_review: { label: 'Manual review', color: 'red', chart: 'red.5' },
}

export const SEVERITY: Record<RiskItem['severity'], Labelled> = {
  high: { label: 'High', color: 'red' },
  medium: { label: 'Medium', color: 'orange' },
  low: { label: 'Low', color: 'gray' },
}

export const MAPPING_STATUS: Record<FieldMapping['status'], Labelled> = {
  exact: { label: 'Exact', color: 'teal' },
  lossy: { label: 'Lossy', color: 'yellow' },
  // Kept as a custom field or not imported: the action says which.
  unmapped: { label: 'Unmapped', color: 'gray' },
}

export const AUTOMATION_LEVEL: Record<ObjectAnalysis['automation']['level'], Labelled> = {
  none: { label: 'None', color: 'gray' },
  low: { label: 'Low', color: 'teal' },
  medium: { label: 'Medium', color: 'yellow' },
  high: { label: 'High', color: 'red' },
}

export const ENVIRONMENT_LABEL: Record<SourceEnvironment, string> = { sandbox: 'Sandbox', production: 'Production' }

export const WIZARD_STEPS = ['Connect', 'Analyze', 'Report', 'Configure', 'Migrate'] as const
export const STEP = { connect: 0, analyze: 1, report: 2, configure: 3, migrate: 4 } as const

/** The step a migration's status puts the wizard on; earlier steps stay open for review. */
export function currentStep(m: Pick<MigrationView, 'status' | 'analyzed_at' | 'started_at'>): number {
  switch (m.status) {
    case 'analyzing':
      return STEP.analyze
    case 'analyzed':
      return STEP.report
    case 'configured':
      return STEP.migrate
    case 'failed':
    case 'cancelled':
      // Ended before the analysis finished, or during the run.
      if (!m.analyzed_at) return STEP.analyze
      return m.started_at ? STEP.migrate : STEP.report
    default:
      return STEP.migrate
  }
}

export function targetLabel(target: KindName | null): string {
  return target ? kindsByName[target].labelPlural : 'No target'
}

export function count(n: number): string {
  return n.toLocaleString()
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`
}

/** "45 s", "12 min", "2 h 5 min": an estimate, so no more precision than that. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return rest ? `${hours} h ${rest} min` : `${hours} h`
}

export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.min(100, Math.round((part / whole) * 100)) : 0
}

/** The readiness score's colour: good from 80, worth a look from 50. */
export function readinessColor(score: number): string {
  return score >= 80 ? 'teal' : score >= 50 ? 'yellow' : 'red'
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
