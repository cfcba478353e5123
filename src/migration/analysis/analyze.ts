/**
 * The Analyze step: from what the source reader gathered (SourceMetadata) to the report. Pure: no
 * I/O, no clock but ctx.now, so the same metadata always gives the same report.
 */
import type { AnalysisContext, AnalysisReport, ObjectAnalysis, SourceDescribe, SourceMetadata } from '../migration.types.ts'
import { mapObjectFields } from '../mapping/auto-map.ts'
import { catalogueFor } from '../mapping/catalogue.ts'
import { namespaceOf } from '../mapping/field-types.ts'
import { importableByDefault } from '../migration.defaults.ts'
import { emptySummary, summarizeAutomation } from './automation.ts'
import { scoreObject } from './compatibility.ts'
import { findDuplicateEmails, leadsMatchingContacts } from './duplicates.ts'
import { takeInventory } from './inventory.ts'
import { cannotBeInvited, matchOwners, usersUnreadable } from './owners.ts'
import { computeReadiness } from './readiness.ts'
import { collectRisks, type QuotaState } from './risks.ts'
import { estimateTimeline, OBJECT_ORDER, readVia, recommendedPhases } from './timeline.ts'

/** Developer names of an object's record types other than Master (active ones, once each). */
function recordTypesOf(name: string, describe: SourceDescribe | null, all: SourceMetadata['record_types']): string[] {
  const fromDescribe = (describe?.recordTypeInfos ?? []).filter((r) => !r.master && r.active).map((r) => r.developerName)
  const names = fromDescribe.length > 0 ? fromDescribe : all.filter((r) => r.SobjectType === name && r.DeveloperName !== 'Master').map((r) => r.DeveloperName)
  return [...new Set(names)]
}

function quotaState(limits: SourceMetadata['limits'], calls: number): QuotaState {
  if (limits === null) return 'unknown'
  if (limits.remaining < calls) return 'insufficient'
  if (limits.remaining < 2 * calls) return 'tight'
  return 'ok'
}

/** Rows the reader lists in `unreadable` under these names are the user and record-type directories, not objects. */
const DIRECTORY_READS = new Set(['User', 'RecordType'])

const order = (name: string) => {
  const i = OBJECT_ORDER.indexOf(name)
  return i < 0 ? OBJECT_ORDER.length : i
}

export function analyzeSource(metadata: SourceMetadata, ctx: AnalysisContext): AnalysisReport {
  const inv = takeInventory(metadata.global)
  const inScope = new Set(inv.supported)
  const entries = new Map(metadata.global.map((e) => [e.name, e]))
  const automation = summarizeAutomation(
    metadata.automation,
    metadata.global.map((e) => ({ name: e.name, label: metadata.describes[e.name]?.label ?? e.label })),
  )

  // Users and record types are read as rows of their own, not as objects: their own risks cover them.
  const failures = new Map((metadata.unreadable ?? []).filter((u) => !DIRECTORY_READS.has(u.object)).map((u) => [u.object, u.reason]))
  const unreadable: Array<{ object: string; reason: string }> = []
  const objects: ObjectAnalysis[] = []
  const candidates = [...[...inv.supported].sort((a, b) => order(a) - order(b)), ...inv.custom, ...inv.other]
  for (const name of candidates) {
    const entry = entries.get(name)!
    const count = metadata.counts[name] ?? 0
    const described = !inv.other.includes(name)
    // Other standard objects are listed only when they hold records: an empty Campaign table is noise.
    // One whose count failed is listed (unreadable): its records are unknown, not none.
    if (!described && count === 0 && !failures.has(name)) continue
    const cat = catalogueFor(name)
    const kind = cat?.target ?? null
    const describe = metadata.describes[name] ?? null
    // An object whose describe or count failed cannot be imported as analysed; one with no target
    // is unreadable too (its count sizes the report), though only its listing depends on it.
    const failure = failures.get(name) ?? (described && !describe ? 'its describe could not be read' : null)
    if (failure) unreadable.push({ object: name, reason: failure })
    const fields = describe ? mapObjectFields(describe, { inScope, kind }) : []
    const custom = entry.custom || name.endsWith('__c')
    const namespace = namespaceOf(name)
    const score = scoreObject({
      name,
      custom,
      namespace,
      support: cat?.support ?? 'none',
      fields,
      unreadable: failure,
      recordTypes: kind ? recordTypesOf(name, describe, metadata.record_types) : [],
      personAccounts: name === 'Account' && (describe?.fields.some((f) => f.name === 'IsPersonAccount') ?? false),
    })
    objects.push({
      name,
      label: describe?.label ?? entry.label,
      custom,
      namespace,
      key_prefix: describe?.keyPrefix ?? entry.keyPrefix ?? null,
      record_count: count,
      target: kind,
      support: cat?.support ?? 'none',
      default_selected: importableByDefault(cat?.support ?? 'none', score.compatibility),
      compatibility: score.compatibility,
      reasons: score.reasons,
      fields,
      automation: automation.byObject.get(name) ?? emptySummary(),
      read_via: readVia(count),
    })
  }

  // Objects read only for their counts (EmailMessage, files, Chatter) size risks: unread, they are unknown, not zero.
  const listed = new Set(objects.map((o) => o.name))
  for (const [object, reason] of failures) if (!listed.has(object)) unreadable.push({ object, reason })

  const owners = matchOwners(metadata.users, ctx.members)
  const duplicates = findDuplicateEmails(metadata.email_samples)
  const selected = objects.filter((o) => o.default_selected)
  const timeline = estimateTimeline(selected, ctx, metadata.limits)
  const quota = quotaState(metadata.limits, timeline.estimated_api_calls)
  const risks = collectRisks({ metadata, objects, unreadable, owners, duplicates, leadContactOverlap: leadsMatchingContacts(metadata.email_samples), timeline, quota })
  const readiness = computeReadiness({
    objects,
    quota,
    unreadable: unreadable.map((u) => u.object),
    owners: { source_users: owners.source_users, lost: owners.unmatched.filter(cannotBeInvited).length, unreadable: usersUnreadable(metadata) },
    recordTypesUnreadable: (metadata.unreadable ?? []).some((u) => u.object === 'RecordType'),
    automation: { weighted_score: automation.org.weighted_score, level: automation.org.level, unreadable: metadata.automation.unavailable },
    duplicates,
    duplicatesUnreadable: (metadata.email_samples_unreadable ?? []).map((u) => u.object),
  })

  return {
    generated_at: ctx.now.toISOString(),
    source: { instance_url: metadata.instance_url, organization_id: metadata.organization_id, environment: metadata.environment, api_version: metadata.api_version },
    objects,
    filtered_objects: { count: inv.filtered.count, examples: inv.filtered.examples },
    automation: automation.org,
    risks,
    readiness,
    timeline,
    owners,
    duplicates,
    recommended_phases: recommendedPhases(
      selected.map((o) => o.name),
      metadata.environment,
    ),
  }
}
