import { describe, expect, it } from 'vitest'
import { analyzeSource } from '../../../src/migration/analysis/analyze.ts'
import { PARTIAL_WEIGHT, READY_THRESHOLD } from '../../../src/migration/analysis/readiness.ts'
import type { AnalysisContext, AnalysisReport, SourceMetadata } from '../../../src/migration/migration.types.ts'
import { fixtureMetadata } from '../mapping/fixtures.ts'
import { defaultConfig } from '../../../src/migration/migration.defaults.ts'

const CTX: AnalysisContext = { members: [{ user_id: 'u1', email: 'ada@example.com' }], assumed_records_per_second: 5000, now: new Date('2025-03-01T12:00:00Z') }

const objectOf = (r: AnalysisReport, name: string) => r.objects.find((o) => o.name === name)!
const fieldOf = (r: AnalysisReport, object: string, field: string) => objectOf(r, object).fields.find((f) => f.source === field)!
const risk = (r: AnalysisReport, code: string, object?: string) => r.risks.find((x) => x.code === code && (object === undefined || x.object === object))

describe('analysing the recorded org (real describes)', () => {
  const report = analyzeSource(fixtureMetadata(), CTX)

  it('lists the supported objects in import order, then other business objects that hold records', () => {
    expect(report.objects.map((o) => o.name)).toEqual(['Account', 'Contact', 'Lead', 'Opportunity', 'Case', 'Event', 'Campaign', 'OpportunityContactRole'])
    expect(report.objects.filter((o) => o.default_selected).map((o) => o.name)).toEqual(['Account', 'Contact', 'Lead', 'Opportunity', 'Case', 'Event'])
    expect(objectOf(report, 'Lead')).toMatchObject({ support: 'planned', target: 'lead', default_selected: true })
    expect(objectOf(report, 'Campaign')).toMatchObject({ support: 'none', target: null, compatibility: 'manual_review', record_count: 19 })
    expect(objectOf(report, 'Account')).toMatchObject({ key_prefix: '001', read_via: 'rest' })
    expect(report.generated_at).toBe('2025-03-01T12:00:00.000Z')
  })

  it('filters describeGlobal\'s shares, histories, feeds, change events and the custom setting', () => {
    const names = report.objects.map((o) => o.name)
    for (const n of ['Custom__c', 'CampaignMember', 'User', 'WorkOrder']) expect(names).not.toContain(n)
    expect(report.filtered_objects.count).toBe(100)
    expect(report.filtered_objects.examples).toContain('Custom__c')
  })

  it('maps what an administrator expects, field by field', () => {
    expect(fieldOf(report, 'Account', 'BillingStreet')).toMatchObject({ action: 'field', target: 'billing_street', status: 'exact' })
    expect(fieldOf(report, 'Account', 'BillingAddress')).toMatchObject({ action: 'ignore' })
    expect(fieldOf(report, 'Account', 'Name')).toMatchObject({ target: 'name', required: true })
    expect(fieldOf(report, 'Case', 'Status').picklist!.values.find((v) => v.source === 'Escalated')!.target).toBe('escalated')
    expect(fieldOf(report, 'Account', 'History__c')).toMatchObject({ action: 'custom_field' })
  })

  it('scores the standard objects partial, each with its reasons', () => {
    for (const name of ['Account', 'Contact', 'Case', 'Event', 'Lead', 'Opportunity']) {
      const o = objectOf(report, name)
      expect(o.compatibility, name).toBe('partial')
      expect(o.reasons.length, name).toBeGreaterThan(0)
    }
    expect(objectOf(report, 'Account').reasons).toContain('record types (Household) are kept by developer name in custom_fields; the service has no record types')
    expect(objectOf(report, 'Event').reasons.join()).toMatch(/WhatId: links to Account and Opportunity and Case are kept; 77 other object types/)
  })

  it('flags what a Salesforce administrator would flag', () => {
    expect(risk(report, 'polymorphic_out_of_scope', 'Event')).toMatchObject({ severity: 'low' })
    expect(risk(report, 'email_threads_not_migrated')).toMatchObject({ severity: 'medium', object: 'Case' })
    expect(risk(report, 'files_not_migrated')).toBeDefined()
    expect(risk(report, 'chatter_not_migrated')).toBeDefined()
    expect(risk(report, 'case_numbers_renumbered')).toBeDefined()
    expect(risk(report, 'picklist_merged', 'Opportunity')).toBeDefined()
    expect(risk(report, 'queue_owners', 'Case')).toBeDefined()
    expect(risk(report, 'managed_package_fields', 'Account')!.detail).toMatch(/ns__Description__c/)
    expect(risk(report, 'production_source')).toBeDefined()
    expect(risk(report, 'person_accounts')).toBeUndefined()
    expect(new Set(report.risks.map((r) => `${r.code}:${r.object}`)).size).toBe(report.risks.length)
    const severities = report.risks.map((r) => r.severity)
    expect(severities).toEqual([...severities].sort((a, b) => ['high', 'medium', 'low'].indexOf(a) - ['high', 'medium', 'low'].indexOf(b)))
  })

  it('matches owners by normalised email and finds duplicates ignoring case and spaces', () => {
    expect(report.owners).toMatchObject({ source_users: 2, matched: 1, unmatched: [{ src_id: '005000000000002AAA', name: 'Ben Sales', active: true }] })
    const withBen = analyzeSource(fixtureMetadata(), { ...CTX, members: [...CTX.members, { user_id: 'u2', email: 'ben@example.com' }] })
    expect(withBen.owners.matched).toBe(2)
    expect(report.duplicates.find((d) => d.object === 'Contact')).toEqual({ object: 'Contact', sampled: 3, duplicate_groups: 1, examples: ['ann@x.com (2 records)'] })
    expect(risk(report, 'duplicate_emails', 'Contact')).toBeDefined()
  })

  it('computes readiness from the scores and penalties, and says how', () => {
    const r = report.readiness
    const total = 1200 + 3400 + 500 + 300 + 900 + 2500 + 19 + 40
    expect(r.auto_share).toBe(0)
    expect(r.partial_share).toBeCloseTo((total - 59) / total, 3)
    // Ben is not a member yet but can be invited: no penalty. One address twice in a sample of 3 is heavy.
    expect(r.penalties).toEqual([{ reason: 'duplicate email addresses in the sample of Contact (1 of 3, heavy)', points: 10 }])
    // Heavy duplicates are a blocker: the score is held under the ready threshold.
    expect(Math.round((100 * PARTIAL_WEIGHT * (total - 59)) / total - 10)).toBeGreaterThanOrEqual(READY_THRESHOLD)
    expect(r.score).toBe(READY_THRESHOLD - 1)
    expect(r.explanation).toMatch(/held under 80 because duplicate email addresses in the sample of Contact/)
    expect(r.explanation).toContain(`of the ${total.toLocaleString('en-US')} records`)
    expect(r.explanation.endsWith(`${r.score}.`)).toBe(true)
  })

  it('estimates the default selection\'s calls and time, and recommends the spec\'s phases', () => {
    expect(report.timeline).toMatchObject({ records: 1200 + 3400 + 500 + 300 + 900 + 2500, assumed_records_per_second: 5000, estimated_seconds: 2 })
    expect(report.timeline.phases.map((p) => p.name)).toEqual(['Accounts and contacts', 'Leads, products and opportunities', 'Cases and case comments', 'Activities'])
    expect(report.recommended_phases.map((p) => p.name)).toEqual(['Try a sandbox first', 'Import accounts and contacts', 'Validate', 'Import the rest', 'Keep the source active'])
  })
})

describe('the configuration a migration starts from', () => {
  it('ticks every object the analysis found importable, leads and opportunities included', () => {
    const report = analyzeSource(fixtureMetadata(), CTX)
    const importable = report.objects.filter((o) => o.target !== null && o.compatibility !== 'manual_review').map((o) => o.name)
    expect(importable).toEqual(['Account', 'Contact', 'Lead', 'Opportunity', 'Case', 'Event'])
    expect(defaultConfig(report.objects.filter((o) => o.default_selected).map((o) => o.name)).objects).toEqual(importable)
  })

  it('leaves an object for review unticked, and objects with no place in Cairn', () => {
    const metadata = fixtureMetadata()
    delete metadata.describes.Opportunity
    const report = analyzeSource(metadata, CTX)
    expect(objectOf(report, 'Opportunity')).toMatchObject({ target: 'opportunity', compatibility: 'manual_review', default_selected: false })
    expect(objectOf(report, 'Campaign')).toMatchObject({ target: null, default_selected: false })
    expect(report.objects.filter((o) => o.default_selected).map((o) => o.name)).toEqual(['Account', 'Contact', 'Lead', 'Case', 'Event'])
  })
})

describe('analysing a person-account org', () => {
  const report = analyzeSource(fixtureMetadata({ personAccounts: true }), CTX)

  it('flags person accounts and keeps Account partial', () => {
    expect(risk(report, 'person_accounts', 'Account')).toMatchObject({ severity: 'high' })
    expect(objectOf(report, 'Account').compatibility).toBe('partial')
    expect(objectOf(report, 'Account').reasons.join()).toMatch(/person accounts are enabled/)
  })

  it('lists the formula fields that are not imported', () => {
    const f = risk(report, 'formula_fields', 'Account')!
    expect(f.detail).toMatch(/npsp__Membership_Span__c/)
    expect(objectOf(report, 'Account').reasons[0]).toMatch(/^16 formula fields not imported/)
  })
})

describe('what the analysis does when the source is short of something', () => {
  const base = fixtureMetadata()

  it('warns when the allowance is under twice the estimate and penalises when it is under the estimate', () => {
    const calls = analyzeSource(base, CTX).timeline.estimated_api_calls
    const tight = analyzeSource({ ...base, limits: { max: 15_000, remaining: calls + 1 } }, CTX)
    expect(risk(tight, 'api_allowance')).toMatchObject({ severity: 'medium' })
    expect(tight.readiness.penalties.map((p) => p.points)).toContain(5)
    const short = analyzeSource({ ...base, limits: { max: 15_000, remaining: calls - 1 } }, CTX)
    expect(risk(short, 'api_allowance')).toMatchObject({ severity: 'high' })
    expect(short.readiness.penalties.map((p) => p.points)).toContain(20)
    expect(risk(analyzeSource({ ...base, limits: null }, CTX), 'api_allowance_unknown')).toBeDefined()
  })

  it('reports automation it could not read instead of claiming none', () => {
    const r = analyzeSource({ ...base, automation: { ...base.automation, unavailable: ['Apex triggers (Tooling API): insufficient access'] } }, CTX)
    expect(risk(r, 'automation_unreadable')!.detail).toMatch(/^automation could not be read: Apex triggers \(Tooling API\): insufficient access/)
  })

  it('scores an object whose describe or count failed manual_review, with a risk and a penalty', () => {
    const { Contact: _c, ...describes } = base.describes
    const md: SourceMetadata = { ...base, describes, unreadable: [{ object: 'Case', reason: 'INSUFFICIENT_ACCESS: no read access to Case' }] }
    const r = analyzeSource(md, CTX)
    expect(objectOf(r, 'Contact')).toMatchObject({ compatibility: 'manual_review', reasons: ['could not be read: its describe could not be read'], fields: [] })
    expect(objectOf(r, 'Case').reasons).toEqual(['could not be read: INSUFFICIENT_ACCESS: no read access to Case'])
    expect(r.risks.filter((x) => x.code === 'object_unreadable').map((x) => x.object).sort()).toEqual(['Case', 'Contact'])
    expect(r.readiness.penalties).toContainEqual({ reason: '2 object(s) could not be read (Contact, Case)', points: 20 })
  })

  it('reads large objects through Bulk API 2.0 and counts their calls', () => {
    const r = analyzeSource({ ...base, counts: { ...base.counts, Contact: 250_000 } }, CTX)
    expect(objectOf(r, 'Contact').read_via).toBe('bulk')
    expect(objectOf(r, 'Account').read_via).toBe('rest')
  })
})
