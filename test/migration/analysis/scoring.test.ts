import { describe, expect, it } from 'vitest'
import { summarizeAutomation } from '../../../src/migration/analysis/automation.ts'
import { scoreObject, type CompatibilityInput } from '../../../src/migration/analysis/compatibility.ts'
import { AUTOMATION_HEAVY, computeReadiness, PARTIAL_WEIGHT, PENALTIES, READY_THRESHOLD, type ReadinessInput } from '../../../src/migration/analysis/readiness.ts'
import { BULK_THRESHOLD, estimateApiCalls, estimateTimeline, readCalls, readVia } from '../../../src/migration/analysis/timeline.ts'
import { mapObjectFields } from '../../../src/migration/mapping/auto-map.ts'
import type { FieldMapping, SourceMetadata } from '../../../src/migration/migration.types.ts'
import { describeFixture, IN_SCOPE } from '../mapping/fixtures.ts'

type Automation = SourceMetadata['automation']
const trigger = (Name: string, object: string, Status = 'Active'): Automation['triggers'][number] => ({ Name, TableEnumOrId: object, Status, NamespacePrefix: null, UsageAfterInsert: true, UsageAfterUpdate: true })
const flow = (Label: string, object: string | null, TriggerType: string | null, extra: Partial<Automation['flows'][number]> = {}): Automation['flows'][number] => ({
  ApiName: Label.replace(/\W/g, '_'), Label, ProcessType: 'AutoLaunchedFlow', TriggerType, TriggerObjectOrEventLabel: object, IsActive: true, ...extra,
})
const OBJECTS = [{ name: 'Case', label: 'Case' }, { name: 'Project__c', label: 'Project' }, { name: 'Account', label: 'Account' }]

describe('automation complexity', () => {
  it('weighs active triggers 3, record-triggered flows 2, scheduled flows and workflow rules 1, and skips inactive items', () => {
    const { byObject, org } = summarizeAutomation({
      triggers: [trigger('CaseTrigger', 'Case'), trigger('CaseOld', 'Case', 'Inactive'), trigger('CaseGone', 'Case', 'Deleted')],
      flows: [
        flow('Case Assignment', 'Case', 'RecordAfterSave'),
        flow('Case Draft', 'Case', 'RecordBeforeSave', { IsActive: false }),
        flow('Case Nightly', 'Case', 'Scheduled'),
        flow('Case Process', 'Case', null, { ProcessType: 'Workflow' }),
        flow('Order Event', 'Order_Placed__e', 'PlatformEvent'),
      ],
      workflow_rules: [{ Name: 'Case rule', TableEnumOrId: 'Case', NamespacePrefix: null }],
      unavailable: [],
    }, OBJECTS)
    const c = byObject.get('Case')!
    expect(c).toMatchObject({ active_triggers: 1, record_triggered_flows: 2, scheduled_flows: 1, other_flows: 0, workflow_rules: 1, weighted_score: 3 + 2 * 2 + 1 + 1, level: 'high' })
    expect(c.items.map((i) => i.name)).toEqual(['CaseTrigger', 'Case Assignment', 'Case Nightly', 'Case Process', 'Case rule'])
    expect(c.items[0].detail).toBe('Apex trigger (after insert, after update) on Case')
    expect(org).toMatchObject({ active_triggers: 1, other_flows: 1, weighted_score: 9, level: 'low' })
  })

  it('finds a flow\'s object by its label, and levels objects by their weighted score', () => {
    const { byObject } = summarizeAutomation({
      triggers: [trigger('P1', 'Project__c'), trigger('P2', 'Project__c'), trigger('P3', 'Project__c')],
      flows: [flow('Project Assignment', 'Project', 'RecordAfterSave')],
      workflow_rules: [],
      unavailable: [],
    }, OBJECTS)
    expect(byObject.get('Project__c')).toMatchObject({ active_triggers: 3, record_triggered_flows: 1, weighted_score: 11, level: 'high' })
    const one = summarizeAutomation({ triggers: [trigger('A', 'Account')], flows: [], workflow_rules: [], unavailable: [] }, OBJECTS)
    expect(one.byObject.get('Account')!.level).toBe('low')
  })
})

describe('compatibility scores', () => {
  const field = (source: string, extra: Partial<FieldMapping>): FieldMapping => ({
    source, label: source, source_type: 'string', custom: false, calculated: false, required: false, action: 'field', target: source.toLowerCase(), transform: 'text', status: 'exact', notes: [], ...extra,
  })
  const input = (fields: FieldMapping[], extra: Partial<CompatibilityInput> = {}): CompatibilityInput => ({
    name: 'CaseComment', custom: false, namespace: null, support: 'automatic', fields, unreadable: null, recordTypes: [], personAccounts: false, ...extra,
  })

  it('is auto when every field lands in a target field, system fields aside', () => {
    const fields = [
      field('Id', { action: 'ignore', target: null, status: 'unmapped' }),
      field('ParentId', { action: 'reference', target: null, targets: { Case: 'case_id' }, reference_to: ['Case'], required: true }),
      field('CommentBody', { target: 'body' }),
    ]
    expect(scoreObject(input(fields))).toEqual({ compatibility: 'auto', reasons: [] })
  })

  it('is partial for an optional polymorphic lookup to types that are not imported', () => {
    const what = field('WhatId', { action: 'reference', targets: { Account: 'account_id' }, reference_to: ['Account', 'Campaign'], status: 'lossy', notes: ['Campaign is not imported'] })
    expect(scoreObject(input([what], { name: 'Task' })).compatibility).toBe('partial')
  })

  it('is manual_review when a required lookup can point outside the import, or too many required fields have no target', () => {
    const what = field('WhatId', { action: 'reference', targets: { Account: 'account_id' }, reference_to: ['Account', 'Campaign'], status: 'lossy', required: true })
    const r = scoreObject(input([what], { name: 'Task' }))
    expect(r.compatibility).toBe('manual_review')
    expect(r.reasons[0]).toBe('required lookup WhatId can point to objects that are not imported (Campaign)')
    const kept = ['A__c', 'B__c', 'C__c', 'D__c'].map((s) => field(s, { action: 'custom_field', target: null, status: 'unmapped', required: true, custom: true }))
    expect(scoreObject(input(kept.slice(0, 3), { name: 'Account' })).compatibility).toBe('partial')
    expect(scoreObject(input(kept, { name: 'Account' })).compatibility).toBe('manual_review')
  })

  it('scores the real Account describe partial, for its kept fields, lookups and record type', () => {
    const fields = mapObjectFields(describeFixture('Account.describe.json'), { inScope: IN_SCOPE, kind: 'account' })
    const r = scoreObject(input(fields, { name: 'Account', recordTypes: ['Household'] }))
    expect(r.compatibility).toBe('partial')
    expect(r.reasons).toEqual(expect.arrayContaining([
      '2 custom fields kept in custom_fields: ns__Description__c, History__c',
      'record types (Household) are kept by developer name in custom_fields; the service has no record types',
    ]))
  })

  it('is manual_review for objects with no target or an unreadable describe', () => {
    expect(scoreObject(input([], { name: 'Project__c', custom: true, support: 'none' })).reasons).toEqual(['custom object with no target in the service: its records are not imported'])
    expect(scoreObject(input([], { name: 'Contact', unreadable: 'insufficient access rights' }))).toEqual({ compatibility: 'manual_review', reasons: ['could not be read: insufficient access rights'] })
  })
})

describe('readiness', () => {
  const objects: ReadinessInput['objects'] = [
    { name: 'CaseComment', record_count: 300, compatibility: 'auto' },
    { name: 'Account', record_count: 600, compatibility: 'partial' },
    { name: 'Project__c', record_count: 100, compatibility: 'manual_review' },
  ]
  const clean: ReadinessInput = {
    objects, quota: 'ok', unreadable: [], owners: { source_users: 4, lost: 0, unreadable: false }, recordTypesUnreadable: false,
    automation: { weighted_score: 10, level: 'low', unreadable: [] }, duplicates: [], duplicatesUnreadable: [],
  }

  it('is the record-weighted share of auto plus PARTIAL_WEIGHT of partial, explained', () => {
    const r = computeReadiness(clean)
    expect(r).toMatchObject({ score: Math.round(30 + 60 * PARTIAL_WEIGHT), auto_share: 0.3, partial_share: 0.6, penalties: [] })
    expect(r.explanation).toBe(
      `30.0% of the 1,000 records are in objects scored auto (counted in full) and 60.0% in objects scored partial (counted ${PARTIAL_WEIGHT}); manual_review objects count nothing. That gives 87.0 points, with no penalties, rounded and kept within 0-100 (${READY_THRESHOLD} or more reads ready): 87.`,
    )
  })

  it('subtracts the penalties it lists and never goes below zero', () => {
    const r = computeReadiness({
      ...clean, quota: 'insufficient', owners: { source_users: 4, lost: 2, unreadable: false }, unreadable: ['Case'],
      duplicates: [{ object: 'Contact', duplicate_groups: 1, sampled: 100 }, { object: 'Lead', duplicate_groups: 10, sampled: 100 }],
    })
    expect(r.penalties.map((p) => p.points)).toEqual([20, 10, 8, 5, 10])
    expect(r.score).toBe(87 - 53)
    expect(r.explanation).toMatch(/minus 20 because the source's remaining daily API allowance is smaller than the estimated calls/)
    expect(computeReadiness({ ...clean, objects: [objects[2]], quota: 'insufficient' }).score).toBe(0)
  })

  it('does not charge for source users who can still be invited, only for owners lost for good', () => {
    // 4 users not members yet, all invitable: no penalty (the owners_unmatched risk says to invite them).
    expect(computeReadiness(clean).penalties).toEqual([])
    const lost = computeReadiness({ ...clean, owners: { source_users: 4, lost: 1, unreadable: false } })
    expect(lost.penalties).toEqual([{ reason: expect.stringMatching(/^1 of 4 source users have no member here and cannot be invited/), points: 4 }])
  })

  it('charges heavy automation and heavy duplicates more than light ones', () => {
    const points = (x: Partial<ReadinessInput>) => computeReadiness({ ...clean, ...x }).penalties.reduce((n, p) => n + p.points, 0)
    expect(points({ automation: { weighted_score: 40, level: 'high', unreadable: [] } })).toBe(PENALTIES.automation_high)
    expect(points({ automation: { weighted_score: AUTOMATION_HEAVY, level: 'high', unreadable: [] } })).toBe(PENALTIES.automation_heavy)
    expect(points({ duplicates: [{ object: 'Contact', duplicate_groups: 4, sampled: 100 }] })).toBe(PENALTIES.duplicates)
    expect(points({ duplicates: [{ object: 'Contact', duplicate_groups: 5, sampled: 100 }] })).toBe(PENALTIES.duplicates_heavy)
  })

  it('charges what could not be read more than the worst its reading could have shown', () => {
    const score = (x: Partial<ReadinessInput>) => computeReadiness({ ...clean, ...x }).score
    const worst = {
      quota: score({ quota: 'insufficient' }),
      owners: score({ owners: { source_users: 4, lost: 4, unreadable: false } }),
      automation: score({ automation: { weighted_score: 500, level: 'high', unreadable: [] } }),
      duplicates: score({ duplicates: [{ object: 'Contact', duplicate_groups: 50, sampled: 100 }] }),
    }
    expect(score({ quota: 'unknown' })).toBeLessThan(worst.quota)
    expect(score({ owners: { source_users: 0, lost: 0, unreadable: true } })).toBeLessThan(worst.owners)
    expect(score({ automation: { weighted_score: 0, level: 'none', unreadable: ['Apex triggers (Tooling API): busy'] } })).toBeLessThan(worst.automation)
    expect(score({ duplicatesUnreadable: ['Contact'] })).toBeLessThan(worst.duplicates)
    expect(score({ recordTypesUnreadable: true })).toBeLessThan(score({}))
  })

  it('holds an org with a blocker under READY_THRESHOLD, however well its fields map, and says why', () => {
    const perfect: ReadinessInput = { ...clean, objects: [{ name: 'Account', record_count: 100, compatibility: 'auto' }] }
    expect(computeReadiness(perfect).score).toBe(100)
    const blockers: Array<Partial<ReadinessInput>> = [
      { quota: 'insufficient' },
      { quota: 'unknown' },
      { unreadable: ['Lead'] },
      { recordTypesUnreadable: true },
      { owners: { source_users: 0, lost: 0, unreadable: true } },
      { automation: { weighted_score: AUTOMATION_HEAVY, level: 'high', unreadable: [] } },
      { duplicates: [{ object: 'Contact', duplicate_groups: 10, sampled: 100 }] },
      { duplicatesUnreadable: ['Lead'] },
    ]
    for (const b of blockers) {
      const r = computeReadiness({ ...perfect, ...b })
      expect(r.score, JSON.stringify(b)).toBeLessThan(READY_THRESHOLD)
      // Held when its penalty alone would have left it ready; else the penalty already did it.
      if (100 - r.penalties.reduce((n, p) => n + p.points, 0) >= READY_THRESHOLD) {
        expect(r.explanation).toMatch(new RegExp(`held under ${READY_THRESHOLD} because .+: ${READY_THRESHOLD - 1}\\.$`))
      }
    }
    // Light duplicates and high (not heavy) automation cost points but do not block.
    expect(computeReadiness({ ...perfect, duplicates: [{ object: 'Contact', duplicate_groups: 1, sampled: 100 }], automation: { weighted_score: 40, level: 'high', unreadable: [] } }).score).toBe(90)
  })

  it('weighs each object once in an org with no records', () => {
    const r = computeReadiness({ ...clean, objects: objects.map((o) => ({ ...o, record_count: 0 })) })
    expect(r.score).toBe(Math.round(100 * (1 / 3 + PARTIAL_WEIGHT / 3)))
    expect(r.explanation).toMatch(/each object weighs the same/)
  })
})

describe('timeline', () => {
  it('reads objects above BULK_THRESHOLD with Bulk API 2.0', () => {
    expect(BULK_THRESHOLD).toBe(10_000)
    expect(readVia(10_000)).toBe('rest')
    expect(readVia(10_001)).toBe('bulk')
  })

  it('counts one REST call per 2,000 rows, and a Bulk job\'s create, polls and 50,000-row result pages', () => {
    expect(readCalls(0)).toBe(1)
    expect(readCalls(4_001)).toBe(3)
    expect(readCalls(120_000)).toBe(1 + 2 + 1 + 3)
    expect(estimateApiCalls([{ name: 'Account', record_count: 4_001 }, { name: 'Contact', record_count: 120_000 }])).toBe(5 + (2 + 3) + (2 + 7))
  })

  it('estimates seconds from the assumed speed, phase by phase in import order', () => {
    const t = estimateTimeline(
      [{ name: 'Event', record_count: 500 }, { name: 'Contact', record_count: 3_000 }, { name: 'Case', record_count: 1_000 }, { name: 'CaseComment', record_count: 2_500 }, { name: 'Account', record_count: 1_000 }],
      { assumed_records_per_second: 1_000 },
      { max: 15_000, remaining: 100 },
    )
    expect(t).toMatchObject({ records: 8_000, estimated_seconds: 8, assumed_records_per_second: 1_000, allowance: { max: 15_000, remaining: 100 } })
    expect(t.phases).toEqual([
      { name: 'Accounts and contacts', objects: ['Account', 'Contact'], records: 4_000, estimated_seconds: 4 },
      { name: 'Cases and case comments', objects: ['Case', 'CaseComment'], records: 3_500, estimated_seconds: 4 },
      { name: 'Activities', objects: ['Event'], records: 500, estimated_seconds: 1 },
    ])
  })
})
