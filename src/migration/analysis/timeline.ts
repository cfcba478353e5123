/**
 * How long an import takes and how many of the source's API calls it spends, and the phases the
 * spec recommends (accounts and contacts first, validate, then the rest). The importer uses
 * BULK_THRESHOLD too: an object above it is read with a Bulk API 2.0 query job, below it with
 * REST queries, so the estimate and the run agree.
 */
import type { AnalysisContext, AnalysisReport, SourceMetadata, TimelineEstimate } from '../migration.types.ts'
import { IMPORT_ORDER } from '../migration.defaults.ts'

/** Source objects in the importer's dependency order (migration.defaults.ts). */
export const OBJECT_ORDER: readonly string[] = IMPORT_ORDER.map((s) => s.object)

/** Objects with more records than this are read through Bulk API 2.0. */
export const BULK_THRESHOLD = 10_000
/** Rows per REST query page (source-platform.md §1.6). */
export const REST_PAGE_ROWS = 2_000
/** Rows per Bulk 2.0 result page the importer asks for (`maxRecords`). */
export const BULK_RESULT_ROWS = 50_000
/** Status polls of a Bulk job: a couple while it starts, one more per this many rows while it runs. */
const BULK_POLL_ROWS = 250_000
/** Per object: describe and count. */
const CALLS_PER_OBJECT = 2
/** Per run: identity, limits, users, record types, describeGlobal. */
const CALLS_PER_RUN = 5

export function readVia(records: number): 'rest' | 'bulk' {
  return records > BULK_THRESHOLD ? 'bulk' : 'rest'
}

/** API calls to read one object of `records` rows. */
export function readCalls(records: number): number {
  if (readVia(records) === 'rest') return Math.max(1, Math.ceil(records / REST_PAGE_ROWS))
  return 1 + 2 + Math.ceil(records / BULK_POLL_ROWS) + Math.ceil(records / BULK_RESULT_ROWS)
}

export function estimateApiCalls(objects: ReadonlyArray<{ name: string; record_count: number }>): number {
  if (objects.length === 0) return 0
  return CALLS_PER_RUN + objects.reduce((n, o) => n + CALLS_PER_OBJECT + readCalls(o.record_count), 0)
}

const PHASES: ReadonlyArray<{ name: string; objects: readonly string[] }> = [
  { name: 'Accounts and contacts', objects: ['Account', 'Contact'] },
  { name: 'Leads, products and opportunities', objects: ['Lead', 'Product2', 'Opportunity'] },
  { name: 'Cases and case comments', objects: ['Case', 'CaseComment'] },
  { name: 'Activities', objects: ['Task', 'Event'] },
]

function seconds(records: number, rps: number): number {
  return rps > 0 ? Math.ceil(records / rps) : 0
}

/** The estimate for importing `objects` (the selected ones), in dependency order. */
export function estimateTimeline(
  objects: ReadonlyArray<{ name: string; record_count: number }>,
  ctx: Pick<AnalysisContext, 'assumed_records_per_second'>,
  allowance: SourceMetadata['limits'],
): TimelineEstimate {
  const count = new Map(objects.map((o) => [o.name, o.record_count]))
  const rps = ctx.assumed_records_per_second
  const phases = PHASES.map((p) => {
    const names = OBJECT_ORDER.filter((n) => p.objects.includes(n) && count.has(n))
    const records = names.reduce((n, o) => n + (count.get(o) ?? 0), 0)
    return { name: p.name, objects: names, records, estimated_seconds: seconds(records, rps) }
  }).filter((p) => p.objects.length > 0)
  const records = objects.reduce((n, o) => n + o.record_count, 0)
  return {
    records,
    estimated_api_calls: estimateApiCalls(objects),
    allowance,
    assumed_records_per_second: rps,
    estimated_seconds: seconds(records, rps),
    phases,
  }
}

/** The spec's recommended practice (service-spec.md item 8) as steps for these objects. */
export function recommendedPhases(selected: readonly string[], environment: SourceMetadata['environment']): AnalysisReport['recommended_phases'] {
  const has = (n: string) => selected.includes(n)
  const first = ['Account', 'Contact'].filter(has)
  const rest = OBJECT_ORDER.filter((n) => has(n) && !first.includes(n))
  const steps: AnalysisReport['recommended_phases'] = []
  if (environment !== 'sandbox') {
    steps.push({ name: 'Try a sandbox first', objects: [], why: 'A trial import from a sandbox of the source shows mapping and data problems before production data moves.' })
  }
  if (first.length > 0) {
    steps.push({ name: 'Import accounts and contacts', objects: first, why: 'Every other record links to them; a first run of these alone is quick to check.' })
    steps.push({ name: 'Validate', objects: [], why: 'Compare the counts per object with the source, spot-check owners, duplicates and custom fields, before importing what hangs off them.' })
  }
  if (rest.length > 0) {
    steps.push({
      name: 'Import the rest',
      objects: rest,
      why: 'Leads, products and opportunities (when selected), then cases with their comments (thread order kept), then activities, which link to all of them.',
    })
  }
  steps.push({ name: 'Keep the source active', objects: [], why: 'Users keep working in the source until the switch; every imported record carries its src_id, so it can always be traced back to its source record.' })
  return steps
}
