/**
 * The words of history and undo, without a browser: who made a change ("Ana Diaz via Claude
 * Desktop", "CSV import"), what an undo will do, and a history entry's changes as the timeline
 * shows them (custom fields one per key under their label).
 */
import { describe, expect, it } from 'vitest'
import { kindsByName } from '../../src/records/kinds/index.ts'
import { actorDetail, actorText, countsText, kindsText, undoEffects } from '../../web/src/features/operations/actorText.ts'
import { historyChanges, historyVerb } from '../../web/src/features/record-page/history/historyChanges.ts'
import type { HistoryEntry } from '../../web/src/api/operations.ts'
import type { CustomField } from '../../web/src/api/customFields.ts'

const ana = { id: '0190a000-0000-7000-8000-000000000001', name: 'Ana Diaz', email: 'ana@acme.test' }

describe('actor text', () => {
  it('names the person, the client they used, or the run', () => {
    expect(actorText({ channel: 'mcp', user: ana, client: { id: 'c1', name: 'Claude Desktop' } })).toBe('Ana Diaz via Claude Desktop')
    expect(actorText({ channel: 'app', user: ana, client: null })).toBe('Ana Diaz')
    expect(actorText({ channel: 'import', user: ana, client: null })).toBe('CSV import')
    expect(actorDetail({ channel: 'import', user: ana, client: null })).toBe('by Ana Diaz')
    expect(actorText({ channel: 'migration', user: null, client: null })).toBe('Migration')
    expect(actorDetail({ channel: 'app', user: ana, client: null })).toBeNull()
  })

  it('says what an operation did and what undoing it will do', () => {
    const counts = { created: 6, updated: 1, deleted: 0, restored: 0 }
    expect(countsText(counts)).toBe('6 created, 1 updated')
    expect(undoEffects(counts)).toEqual(['delete the 6 records it created', 'set back the fields of the 1 record it changed'])
    expect(kindsText(['contact', 'accounts', 'unknown'])).toBe('Contacts, Accounts, unknown')
  })
})

describe('history changes', () => {
  const entry = (changes: HistoryEntry['changes'], action: HistoryEntry['action'] = 'updated'): HistoryEntry => ({
    id: 'h1',
    at: '2026-11-28T10:00:00Z',
    action,
    operation_id: 'o1',
    actor: { channel: 'app', user: ana, client: null },
    changes,
  })
  const tier = { name: 'tier', label: 'Customer tier' } as CustomField

  it('labels built-in fields by the kind and custom fields one per key', () => {
    const e = entry([
      { field: 'industry', label: 'Industry', old: 'Technology', new: 'Banking' },
      { field: 'custom_fields', label: 'Custom fields', old: { tier: 'gold', nps: 9 }, new: { tier: 'silver', nps: 9 } },
      { field: 'updated_at', label: 'updated_at', old: 'a', new: 'b' },
    ])
    const changes = historyChanges(kindsByName.account, e, [tier])
    expect(changes.map((c) => [c.field.label, c.before, c.after])).toEqual([
      ['Industry', 'Technology', 'Banking'],
      ['Customer tier', 'gold', 'silver'],
    ])
    expect(changes[0].field.type).toBe(kindsByName.account.fields.find((f) => f.name === 'industry')!.type)
    expect(historyVerb(e, changes)).toBe('Changed 2 fields')
    expect(historyVerb(e, changes.slice(0, 1))).toBe('Changed industry')
    expect(historyVerb(entry([], 'restored'), [])).toBe('Restored')
  })
})
