/**
 * The web app's view logic that decides what a person sees, without a browser: the timeline's
 * merge of paged sources, the words for change events, the list view read from a URL, and the
 * pipeline totals moved with a card.
 */
import { describe, expect, it } from 'vitest'
import { kindsByName } from '../../src/records/kinds/index.ts'
import { mergeTimeline } from '../../web/src/features/record-page/timeline/mergeTimeline.ts'
import { describeEvents } from '../../web/src/features/record-page/timeline/eventChanges.ts'
import type { RecordEvent } from '../../web/src/features/record-page/timeline/recordEvents.ts'
import type { CustomField } from '../../web/src/api/customFields.ts'
import { filterParams, nextSort, readView } from '../../web/src/features/lists/listUrlState.ts'
import { moveInSummary } from '../../web/src/features/pipeline/stageTotals.ts'

const item = (key: string, at: string) => ({ key, at, value: key })

describe('mergeTimeline', () => {
  it('shows only what is certain while a source has more pages', () => {
    const activities = { items: [item('a1', '2026-05-10T00:00:00Z'), item('a2', '2026-05-01T00:00:00Z')], hasMore: true }
    const events = { items: [item('e1', '2026-05-12T00:00:00Z'), item('e2', '2026-04-01T00:00:00Z')], hasMore: false }
    const merged = mergeTimeline([activities, events])
    // e2 is older than the last loaded activity: an unloaded activity page could come before it.
    expect(merged.items.map((i) => i.key)).toEqual(['e1', 'a1', 'a2'])
    expect(merged.hasMore).toBe(true)
    expect(mergeTimeline([{ ...activities, hasMore: false }, events]).items.map((i) => i.key)).toEqual(['e1', 'a1', 'a2', 'e2'])
  })

  it('is empty for no sources and for empty ones', () => {
    expect(mergeTimeline([])).toEqual({ items: [], hasMore: false })
    expect(mergeTimeline([{ items: [], hasMore: false }])).toEqual({ items: [], hasMore: false })
  })
})

describe('describeEvents', () => {
  const opp = kindsByName.opportunity
  const at = '2026-05-10T10:00:00.000Z'
  const event = (id: string, type: string, data: RecordEvent['data'], timestamp = at): RecordEvent => ({ id, type, timestamp, organization_id: 'o', data })

  it('tells a stage move once, and leaves the other changes of the same write to the update', () => {
    const object = { id: 'x', stage: 'proposal', amount: '10.00', updated_at: at }
    const described = describeEvents(opp, [
      event('u', 'opportunity.updated', { object, previous: { stage: 'qualification', amount: '5.00', updated_at: 'earlier' } }),
      event('s', 'opportunity.stage_changed', { object, previous: { stage: 'qualification', amount: '5.00', updated_at: 'earlier' } }),
      event('u2', 'opportunity.updated', { object, previous: { stage: 'prospecting' } }, '2026-05-09T00:00:00.000Z'),
    ])
    expect(described.get('s')).toMatchObject({ verb: 'Moved the stage', changes: [{ before: 'qualification', after: 'proposal' }] })
    expect(described.get('u')).toMatchObject({ verb: 'Changed amount', changes: [{ before: '5.00', after: '10.00' }] })
    expect(described.get('u')!.changes.map((c) => c.field.name)).toEqual(['amount'])
    // An update that only moved the stage, without its stage_changed twin loaded, still says so.
    expect(described.get('u2')!.changes.map((c) => c.field.name)).toEqual(['stage'])
  })

  it('tells a change of custom fields as one change per field, under its label, for every type and nested data', () => {
    const account = kindsByName.account
    const def = (name: string, label: string, type: CustomField['type']): CustomField =>
      ({ id: name, kind: 'account', name, label, type, options: type === 'picklist' ? ['Gold', 'Silver'] : [], required: false, created_at: at, updated_at: at }) as CustomField
    const defs = [def('tier', 'Customer tier', 'picklist'), def('seats', 'Seats', 'number'), def('renewal_on', 'Renewal date', 'date'), def('vip', 'VIP', 'boolean'), def('motto', 'Motto', 'text'), def('nps', 'NPS', 'number')]
    const before = { tier: 'Silver', seats: 10, renewal_on: '2027-01-31', vip: false, motto: 'Onwards', nps: 40, Legacy__c: { a: [1, { b: 2 }] }, same: { x: 1 } }
    const after = { tier: 'Gold', seats: 12.5, renewal_on: '2027-02-28', vip: true, nps: 40, Legacy__c: { a: [1, { b: 3 }] }, Added__c: ['x'], same: { x: 1 } }
    const described = describeEvents(account, [event('u', 'account.updated', { object: { id: 'x', name: 'Acme', custom_fields: after }, previous: { name: 'Acme Inc', custom_fields: before } })], defs)
    const changes = described.get('u')!.changes
    expect(changes.map((c) => [c.field.label, c.before, c.after, c.custom?.def?.type ?? (c.custom ? 'undefined key' : 'built-in')])).toEqual([
      ['Name', 'Acme Inc', 'Acme', 'built-in'],
      ['Customer tier', 'Silver', 'Gold', 'picklist'],
      ['Seats', 10, 12.5, 'number'],
      ['Renewal date', '2027-01-31', '2027-02-28', 'date'],
      ['VIP', false, true, 'boolean'],
      ['Motto', 'Onwards', undefined, 'text'],
      ['Legacy__c', { a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }, 'undefined key'],
      ['Added__c', undefined, ['x'], 'undefined key'],
    ])
    expect(described.get('u')!.verb).toBe('Changed 8 fields')
    // One custom field alone names it; an acronym keeps its case.
    const one = describeEvents(account, [event('v', 'account.updated', { object: { id: 'x', custom_fields: { nps: 50 } }, previous: { custom_fields: { nps: 40 } } })], defs)
    expect(one.get('v')!.verb).toBe('Changed NPS')
    // Without the definitions (still loading, or a field deleted since), the key is the label.
    expect(describeEvents(account, [event('w', 'account.updated', { object: { id: 'x', custom_fields: { tier: 'Gold' } }, previous: { custom_fields: {} } })]).get('w')!.verb).toBe('Changed tier')
  })

  it('drops an update that changed nothing worth telling', () => {
    const object = { id: 'x', stage: 'proposal' }
    const described = describeEvents(opp, [
      event('u', 'opportunity.updated', { object, previous: { stage: 'qualification' } }),
      event('s', 'opportunity.stage_changed', { object, previous: { stage: 'qualification' } }),
      event('c', 'opportunity.created', { object }),
    ])
    expect(described.has('u')).toBe(false)
    expect(described.get('c')!.verb).toBe('Created this opportunity')
  })
})

describe('the list view in the URL', () => {
  const opp = kindsByName.opportunity

  it('reads search, sort, equality and range filters and the cursor, and drops what the kind lacks', () => {
    const view = readView(opp, new URLSearchParams('q=north&sort=-amount&stage=proposal&amount[gte]=100&close_date[lte]=2026-12-31&cursor=c1&nope=1'))
    expect(view).toEqual({ q: 'north', sort: '-amount', filters: { stage: 'proposal' }, ranges: { 'amount[gte]': '100', 'close_date[lte]': '2026-12-31' }, cursor: 'c1' })
    expect(filterParams(view)).toEqual({ q: 'north', stage: 'proposal', 'amount[gte]': '100', 'close_date[lte]': '2026-12-31' })
    // A field that is not sortable (an edited link) falls back to the default order.
    expect(readView(opp, new URLSearchParams('sort=-probability')).sort).toBe('')
  })

  it('cycles a header through ascending, descending and the default order', () => {
    expect(nextSort('', 'amount')).toBe('amount')
    expect(nextSort('amount', 'amount')).toBe('-amount')
    expect(nextSort('-amount', 'amount')).toBe('')
    expect(nextSort('-name', 'amount')).toBe('amount')
  })
})

describe('moveInSummary', () => {
  it('moves a count and an amount between stages, per currency', () => {
    const summary = {
      stages: [
        { stage: 'proposal', count: 2, amounts: [{ currency: 'USD', total: '300.00' }] },
        { stage: 'negotiation', count: 0, amounts: [] },
      ],
      total_count: 2,
      amounts_visible: true,
    }
    const moved = moveInSummary(summary, 'proposal', 'negotiation', '100.50', 'USD')
    expect(moved.stages).toEqual([
      { stage: 'proposal', count: 1, amounts: [{ currency: 'USD', total: '199.50' }] },
      { stage: 'negotiation', count: 1, amounts: [{ currency: 'USD', total: '100.50' }] },
    ])
    expect(moved.total_count).toBe(2)
    // Hidden amounts stay hidden; a card without an amount moves only the count.
    const hidden = { ...summary, stages: summary.stages.map((s) => ({ ...s, amounts: null })), amounts_visible: false }
    expect(moveInSummary(hidden, 'proposal', 'negotiation', null, 'USD').stages.map((s) => [s.count, s.amounts])).toEqual([
      [1, null],
      [1, null],
    ])
  })
})
