// What a change event says in words: created, deleted, converted, escalated, a stage move, or the
// fields an update changed (from `data.previous`, the old values, against `data.object`).
import { fieldOf, type RecordKind } from '../../../kinds.ts'
import type { FieldDef } from '../../../kinds.ts'
import type { RecordEvent } from './recordEvents.ts'

export interface FieldChange {
  field: FieldDef
  before: unknown
  after: unknown
}

export interface DescribedEvent {
  verb: string
  changes: FieldChange[]
}

const IGNORED = new Set(['updated_at', 'created_at', 'id'])

function changesOf(kind: RecordKind, event: RecordEvent, skip: Set<string>): FieldChange[] {
  const previous = event.data.previous ?? {}
  const object = event.data.object ?? {}
  return Object.keys(previous)
    .filter((name) => !IGNORED.has(name) && !skip.has(name))
    .map((name) => ({ field: fieldOf(kind, name) ?? { name, type: 'string' as const, label: name }, before: previous[name], after: object[name] }))
}

/**
 * Describes each event, or drops it: a stage change is both `opportunity.updated` and
 * `opportunity.stage_changed` at the same time, so the update leaves the stage to the other.
 */
export function describeEvents(kind: RecordKind, events: RecordEvent[]): Map<string, DescribedEvent> {
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
        out.set(e.id, { verb: 'Converted this lead', changes: changesOf(kind, e, new Set(['status'])) })
        break
      case 'escalated':
        out.set(e.id, { verb: 'Escalated this case', changes: [] })
        break
      case 'stage_changed':
        out.set(e.id, { verb: 'Moved the stage', changes: changesOf(kind, e, new Set()).filter((c) => c.field.name === 'stage') })
        break
      case 'updated': {
        const changes = changesOf(kind, e, stageMoves.has(e.timestamp) ? new Set(['stage']) : new Set())
        if (changes.length > 0) out.set(e.id, { verb: changes.length === 1 ? `Changed ${changes[0]!.field.label.toLowerCase()}` : `Changed ${changes.length} fields`, changes })
        break
      }
      default:
        out.set(e.id, { verb: e.type, changes: [] })
    }
  }
  return out
}
