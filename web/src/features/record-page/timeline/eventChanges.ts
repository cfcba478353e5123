// What a change event says in words: created, deleted, converted, escalated, a stage move, or the
// fields an update changed (from `data.previous`, the old values, against `data.object`). A change
// of `custom_fields` is one change per key that changed, under the custom field's label.
import { fieldOf, type RecordKind } from '../../../kinds.ts'
import type { FieldDef } from '../../../kinds.ts'
import type { CustomField } from '../../../api/customFields.ts'
import type { RecordEvent } from './recordEvents.ts'

export interface FieldChange {
  /** A built-in field; for a custom field, its label under `custom_fields.<name>`. */
  field: FieldDef
  before: unknown
  after: unknown
  /** Set for a key of `custom_fields`: its definition, or null for a key no definition names (kept from imports). */
  custom?: { def: CustomField | null }
}

export interface DescribedEvent {
  verb: string
  changes: FieldChange[]
}

const IGNORED = new Set(['updated_at', 'created_at', 'id'])
/** Record keys that are no field of the kind. */
const RECORD_LABELS: Record<string, string> = { src_id: 'Source ID' }

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

/** The keys of custom_fields whose values differ: defined fields in their order, then other keys as stored. */
export function customChanges(before: unknown, after: unknown, defs: readonly CustomField[]): FieldChange[] {
  const old = asObject(before)
  const now = asObject(after)
  const byName = new Map(defs.map((d) => [d.name, d]))
  const keys = [...new Set([...defs.map((d) => d.name), ...Object.keys(old), ...Object.keys(now)])]
  return keys
    .filter((k) => JSON.stringify(old[k]) !== JSON.stringify(now[k]))
    .map((k) => {
      const def = byName.get(k) ?? null
      return { field: { name: `custom_fields.${k}`, type: 'string' as const, label: def?.label ?? k }, before: old[k], after: now[k], custom: { def } }
    })
}

function changesOf(kind: RecordKind, event: RecordEvent, skip: Set<string>, defs: readonly CustomField[]): FieldChange[] {
  const previous = event.data.previous ?? {}
  const object = event.data.object ?? {}
  const out: FieldChange[] = []
  for (const name of Object.keys(previous)) {
    if (IGNORED.has(name) || skip.has(name)) continue
    if (name === 'custom_fields') out.push(...customChanges(previous[name], object[name], defs))
    else out.push({ field: fieldOf(kind, name) ?? { name, type: 'string', label: RECORD_LABELS[name] ?? name }, before: previous[name], after: object[name] })
  }
  return out
}

/** "Customer tier" -> "customer tier", but "NPS" stays "NPS". */
function inSentence(label: string): string {
  return /^.[A-Z]/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1)
}

/**
 * Describes each event, or drops it: a stage change is both `opportunity.updated` and
 * `opportunity.stage_changed` at the same time, so the update leaves the stage to the other.
 * `defs`: the kind's custom field definitions, for their labels.
 */
export function describeEvents(kind: RecordKind, events: RecordEvent[], defs: readonly CustomField[] = []): Map<string, DescribedEvent> {
  const stageMoves = new Set(events.filter((e) => e.type.endsWith('.stage_changed')).map((e) => e.timestamp))
  const out = new Map<string, DescribedEvent>()
  const label = kind.label.toLowerCase()
  for (const e of events) {
    const action = e.type.slice(e.type.indexOf('.') + 1)
    switch (action) {
      case 'created':
        out.set(e.id, { verb: `Created this ${label}`, changes: [] })
        break
      case 'deleted':
        out.set(e.id, { verb: `Deleted this ${label}`, changes: [] })
        break
      case 'converted':
        out.set(e.id, { verb: 'Converted this lead', changes: changesOf(kind, e, new Set(['status']), defs) })
        break
      case 'escalated':
        out.set(e.id, { verb: 'Escalated this case', changes: [] })
        break
      case 'stage_changed':
        out.set(e.id, { verb: 'Moved the stage', changes: changesOf(kind, e, new Set(), defs).filter((c) => c.field.name === 'stage') })
        break
      case 'updated': {
        const changes = changesOf(kind, e, stageMoves.has(e.timestamp) ? new Set(['stage']) : new Set(), defs)
        if (changes.length > 0) out.set(e.id, { verb: changes.length === 1 ? `Changed ${inSentence(changes[0]!.field.label)}` : `Changed ${changes.length} fields`, changes })
        break
      }
      default:
        out.set(e.id, { verb: e.type, changes: [] })
    }
  }
  return out
}
