/**
 * The one place a stored migration becomes what the API shows: sealed tokens, the lease and other
 * internals stay out; totals, rates and time left are derived here from the progress rows.
 */
import type { KindName } from '../records/contracts.ts'
import type { MigrationRow } from './migration.repository.ts'
import type { AnalysisReport, MigrationView, ObjectProgress } from './migration.types.ts'
import type { ObjectRow } from './progress.repository.ts'

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null)

export function objectProgressOf(o: ObjectRow): ObjectProgress {
  const rate = o.status === 'running' && o.records_per_second && o.records_per_second > 0 ? o.records_per_second : null
  const left = Math.max(0, o.total - o.processed)
  return {
    object: o.object,
    target: o.target as KindName,
    status: o.status,
    total: o.total,
    processed: o.processed,
    created: o.created,
    updated: o.updated,
    linked: o.linked,
    skipped: o.skipped,
    failed: o.failed,
    warnings: o.warnings,
    records_per_second: o.records_per_second !== null ? Math.round(o.records_per_second) : null,
    seconds_left: rate ? Math.ceil(left / rate) : o.status === 'completed' ? 0 : null,
    started_at: iso(o.started_at),
    finished_at: iso(o.finished_at),
  }
}

export function migrationViewOf(m: MigrationRow, objects: ObjectRow[]): MigrationView {
  const progress = objects.map(objectProgressOf)
  const sum = (key: keyof ObjectProgress) => progress.reduce((n, p) => n + (p[key] as number), 0)
  const phased = (m.phase_total ?? 1) > 1
  return {
    id: m.id,
    status: m.status,
    status_reason: m.status_reason,
    environment: m.environment,
    src_instance_url: m.src_instance_url,
    source_org_id: m.source_org_id,
    created_at: iso(m.created_at)!,
    updated_at: iso(m.updated_at)!,
    analyzed_at: iso(m.analyzed_at),
    started_at: iso(m.started_at),
    finished_at: iso(m.finished_at),
    resume_at: m.status === 'paused' ? iso(m.resume_at) : null,
    cancel_requested: m.cancel_requested_at !== null,
    phase: phased
      ? {
          current: m.phase_current ?? 1,
          total: m.phase_total!,
          next_available: (m.status === 'completed' || m.status === 'completed_with_errors') && (m.phase_current ?? 1) < m.phase_total!,
        }
      : null,
    config: m.config,
    progress,
    totals: {
      total: sum('total'),
      processed: sum('processed'),
      created: sum('created'),
      updated: sum('updated'),
      linked: sum('linked'),
      skipped: sum('skipped'),
      failed: sum('failed'),
      warnings: sum('warnings'),
    },
    validation: m.validation,
    summary: m.summary,
  }
}

/** The report's headline figures, stored beside it (migrations.summary). */
export function summaryOfReport(report: AnalysisReport): NonNullable<MigrationView['summary']> {
  const risks = (severity: string) => report.risks.filter((r) => r.severity === severity).length
  return {
    readiness: report.readiness.score,
    objects: report.objects.length,
    records: report.objects.reduce((n, o) => n + o.record_count, 0),
    risks: { high: risks('high'), medium: risks('medium'), low: risks('low') },
  }
}
