/**
 * How much automation runs on the source, per object and for the org (source-platform.md §1.7,
 * §3.4): active Apex triggers, active flows and workflow rules, weighted trigger 3, record-triggered
 * flow 2, scheduled flow 1, workflow rule 1. None of it runs in the service after the move, so the
 * more there is, the more behaviour somebody has to re-create. Inactive items are not counted.
 */
import type { AutomationSummary, SourceMetadata } from '../migration.types.ts'

export const WEIGHTS = { trigger: 3, record_triggered_flow: 2, scheduled_flow: 1, workflow_rule: 1, other_flow: 0 } as const

/** Object level: one trigger is low, two triggers (or a trigger and a flow) medium, three or more high. */
export const OBJECT_LEVELS = { low: 1, medium: 4, high: 9 } as const
/** Org level: the same steps, for the sum over all objects. */
export const ORG_LEVELS = { low: 1, medium: 11, high: 31 } as const

/** Flow trigger types that fire when a record is saved or deleted. */
const RECORD_TRIGGERS = new Set(['RecordAfterSave', 'RecordBeforeSave', 'RecordBeforeDelete'])

type Automation = SourceMetadata['automation']
type Trigger = Automation['triggers'][number]
type Flow = Automation['flows'][number]

export function emptySummary(): AutomationSummary {
  return { active_triggers: 0, record_triggered_flows: 0, scheduled_flows: 0, other_flows: 0, workflow_rules: 0, weighted_score: 0, level: 'none', items: [] }
}

export function levelOf(score: number, levels: { low: number; medium: number; high: number } = OBJECT_LEVELS): AutomationSummary['level'] {
  if (score >= levels.high) return 'high'
  if (score >= levels.medium) return 'medium'
  if (score >= levels.low) return 'low'
  return 'none'
}

const TRIGGER_EVENTS: Array<[keyof Trigger, string]> = [
  ['UsageBeforeInsert', 'before insert'],
  ['UsageAfterInsert', 'after insert'],
  ['UsageBeforeUpdate', 'before update'],
  ['UsageAfterUpdate', 'after update'],
  ['UsageBeforeDelete', 'before delete'],
  ['UsageAfterDelete', 'after delete'],
  ['UsageAfterUndelete', 'after undelete'],
]

function packaged(ns: string | null | undefined): string {
  return ns ? `, managed package ${ns}` : ''
}

function triggerDetail(t: Trigger): string {
  const events = TRIGGER_EVENTS.filter(([k]) => t[k] === true).map(([, label]) => label)
  return `Apex trigger (${events.length > 0 ? events.join(', ') : 'events unknown'}${packaged(t.NamespacePrefix)})`
}

type FlowKind = 'record_triggered' | 'scheduled' | 'other'

/** Process Builder processes (ProcessType `Workflow`) start on record saves too: record-triggered. */
function flowKind(f: Flow): FlowKind {
  if (f.TriggerType && RECORD_TRIGGERS.has(f.TriggerType)) return 'record_triggered'
  if (f.TriggerType === 'Scheduled') return 'scheduled'
  if (f.ProcessType === 'Workflow') return 'record_triggered'
  return 'other'
}

function flowDetail(f: Flow, kind: FlowKind): string {
  const what =
    f.ProcessType === 'Workflow'
      ? 'process (Process Builder)'
      : kind === 'record_triggered'
        ? `record-triggered flow (${f.TriggerType === 'RecordBeforeSave' ? 'before save' : f.TriggerType === 'RecordBeforeDelete' ? 'before delete' : 'after save'}${f.RecordTriggerType ? `, ${f.RecordTriggerType}` : ''})`
        : kind === 'scheduled'
          ? 'scheduled flow'
          : `flow (${f.TriggerType ?? f.ProcessType})`
  return what + packaged(f.NamespacePrefix)
}

function finish(s: AutomationSummary, levels: { low: number; medium: number; high: number }): AutomationSummary {
  s.weighted_score =
    s.active_triggers * WEIGHTS.trigger +
    s.record_triggered_flows * WEIGHTS.record_triggered_flow +
    s.scheduled_flows * WEIGHTS.scheduled_flow +
    s.workflow_rules * WEIGHTS.workflow_rule
  s.level = levelOf(s.weighted_score, levels)
  return s
}

export interface AutomationResult {
  byObject: Map<string, AutomationSummary>
  org: AutomationSummary
}

/**
 * Counts active automation per object. Triggers and workflow rules name their object by API name
 * (`TableEnumOrId`; an id for some custom objects, counted for the org only); flows name it by
 * label (`TriggerObjectOrEventLabel`), matched against the objects' labels and names.
 */
export function summarizeAutomation(automation: Automation, objects: ReadonlyArray<{ name: string; label: string }>): AutomationResult {
  const byName = new Map<string, string>()
  for (const o of objects) {
    byName.set(o.name.toLowerCase(), o.name)
    if (!byName.has(o.label.toLowerCase())) byName.set(o.label.toLowerCase(), o.name)
  }
  const byObject = new Map<string, AutomationSummary>()
  const org = emptySummary()
  const summaryOf = (ref: string | null | undefined): AutomationSummary | null => {
    const name = ref ? byName.get(ref.toLowerCase()) : undefined
    if (!name) return null
    let s = byObject.get(name)
    if (!s) byObject.set(name, (s = emptySummary()))
    return s
  }
  const add = (ref: string | null | undefined, apply: (s: AutomationSummary) => void, item: AutomationSummary['items'][number]) => {
    for (const s of [org, summaryOf(ref)]) {
      if (!s) continue
      apply(s)
      s.items.push(item)
    }
  }
  for (const t of automation.triggers) {
    if (t.Status !== 'Active') continue
    add(t.TableEnumOrId, (s) => s.active_triggers++, { kind: 'trigger', name: t.Name, detail: `${triggerDetail(t)} on ${t.TableEnumOrId}` })
  }
  for (const f of automation.flows) {
    if (!f.IsActive) continue
    const kind = flowKind(f)
    const count = (s: AutomationSummary) => {
      if (kind === 'record_triggered') s.record_triggered_flows++
      else if (kind === 'scheduled') s.scheduled_flows++
      else s.other_flows++
    }
    const on = f.TriggerObjectOrEventLabel ? ` on ${f.TriggerObjectOrEventLabel}` : ''
    add(f.TriggerObjectOrEventLabel, count, { kind: 'flow', name: f.Label || f.ApiName, detail: flowDetail(f, kind) + on })
  }
  for (const w of automation.workflow_rules) {
    add(w.TableEnumOrId, (s) => s.workflow_rules++, { kind: 'workflow_rule', name: w.Name, detail: `workflow rule on ${w.TableEnumOrId}${packaged(w.NamespacePrefix)}` })
  }
  for (const s of byObject.values()) finish(s, OBJECT_LEVELS)
  return { byObject, org: finish(org, ORG_LEVELS) }
}
