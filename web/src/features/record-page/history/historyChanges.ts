// A history entry's changes as the timeline's change list takes them: a built-in field under the
// kind's definition (so picklists, dates and money read as on the record), `custom_fields` as one
// change per key under its definition (as the timeline does), anything else under the service's label.
import type { CustomField } from '../../../api/customFields.ts'
import type { HistoryEntry } from '../../../api/operations.ts'
import { fieldOf, type RecordKind } from '../../../kinds.ts'
import { customChanges, type FieldChange } from '../timeline/eventChanges.ts'

const IGNORED = new Set(['id', 'created_at', 'updated_at'])

export function historyChanges(kind: RecordKind, entry: HistoryEntry, defs: readonly CustomField[]): FieldChange[] {
  return entry.changes
    .filter((c) => !IGNORED.has(c.field))
    .flatMap((c): FieldChange[] => {
      if (c.field === 'custom_fields') return customChanges(c.old, c.new, defs)
      const field = fieldOf(kind, c.field)
      return [{ field: field ? { ...field, label: c.label || field.label } : { name: c.field, type: 'string', label: c.label }, before: c.old, after: c.new }]
    })
}

const VERBS: Record<string, string> = { created: 'Created', updated: 'Changed', deleted: 'Deleted', restored: 'Restored' }

/** "Changed stage", "Changed 3 fields", "Created", "Deleted". */
export function historyVerb(entry: HistoryEntry, changes: readonly FieldChange[]): string {
  if (entry.action === 'updated' && changes.length === 1) return `Changed ${changes[0]!.field.label.toLowerCase()}`
  if (entry.action === 'updated') return `Changed ${changes.length} fields`
  return VERBS[entry.action] ?? entry.action.charAt(0).toUpperCase() + entry.action.slice(1).replace(/_/g, ' ')
}
