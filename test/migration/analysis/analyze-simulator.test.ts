// The analyzer on the simulator's generated demo org, read through the real jsforce client: the
// org has what real orgs have (custom and managed-package objects, formulas, record types,
// automation, duplicate emails), and the report must say so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSourceSim, type SourceSim } from '../../../tools/source-sim/main.ts'
import { login } from '../../source-sim/helpers.ts'
import { analyzeSource } from '../../../src/migration/analysis/analyze.ts'
import { PARTIAL_WEIGHT } from '../../../src/migration/analysis/readiness.ts'
import { compileMapping, transformRecord } from '../../../src/migration/mapping/transform-record.ts'
import type { AnalysisReport, SourceMetadata } from '../../../src/migration/migration.types.ts'
import { readSimMetadata } from './sim-metadata.ts'

let sim: SourceSim
let conn: Awaited<ReturnType<typeof login>>
let metadata: SourceMetadata
let report: AnalysisReport

beforeAll(async () => {
  sim = await startSourceSim({ port: 0, host: '127.0.0.1', dataset: 'demo' })
  conn = await login(sim)
  metadata = await readSimMetadata(conn)
  // Two of the org's users are members here; the others are not.
  const members = metadata.users.slice(0, 2).map((u, i) => ({ user_id: `member-${i}`, email: ` ${u.Email!.toUpperCase()}` }))
  report = analyzeSource(metadata, { members, assumed_records_per_second: 5000, now: new Date('2025-03-01T12:00:00Z') })
})
afterAll(() => sim?.close())

const objectOf = (name: string) => report.objects.find((o) => o.name === name)!
const risks = (code: string) => report.risks.filter((r) => r.code === code)

describe('analysing the simulator\'s demo org', () => {
  it('inventories the business objects and filters the platform\'s companions, settings and metadata types', () => {
    expect(report.objects.map((o) => o.name)).toEqual(['Account', 'Contact', 'Lead', 'Product2', 'Opportunity', 'Case', 'CaseComment', 'Task', 'Event', 'Project__c', 'acme__Subscription__c'])
    expect(report.filtered_objects.examples).toEqual(expect.arrayContaining(['AccountShare', 'AccountHistory', 'AccountFeed', 'AccountChangeEvent', 'Acme_Settings__c', 'Region__mdt', 'User', 'RecordType']))
    for (const o of report.objects) expect(o.record_count, o.name).toBe(metadata.counts[o.name])
  })

  it('sends the custom object with no target and the managed-package object to manual review', () => {
    expect(objectOf('Project__c')).toMatchObject({ compatibility: 'manual_review', support: 'none', target: null, namespace: null, default_selected: false })
    expect(objectOf('Project__c').reasons).toContain('custom object with no target in the service: its records are not imported')
    expect(objectOf('acme__Subscription__c')).toMatchObject({ compatibility: 'manual_review', namespace: 'acme' })
    expect(objectOf('acme__Subscription__c').reasons[0]).toMatch(/^managed-package object \(namespace acme\)/)
    expect(risks('custom_object_no_target').map((r) => r.object)).toEqual(['Project__c'])
    expect(risks('managed_package_object').map((r) => r.object)).toEqual(['acme__Subscription__c'])
  })

  it('ignores the formula fields and lists each as a risk', () => {
    const days = objectOf('Account').fields.find((f) => f.source === 'Days_Since_Created__c')!
    const sla = objectOf('Case').fields.find((f) => f.source === 'SLA_Breached__c')!
    for (const f of [days, sla]) expect(f).toMatchObject({ action: 'ignore', calculated: true, status: 'unmapped' })
    expect(risks('formula_fields').find((r) => r.object === 'Account')!.detail).toMatch(/Days_Since_Created__c/)
    expect(risks('formula_fields').find((r) => r.object === 'Case')!.detail).toMatch(/SLA_Breached__c/)
  })

  it('scores Account partial for its record types and formula, and the comment thread auto', () => {
    const account = objectOf('Account')
    expect(account.compatibility).toBe('partial')
    expect(account.reasons).toContain('record types (Business, Partner) are kept by developer name in custom_fields; the service has no record types')
    expect(account.reasons).toContain('1 formula field not imported (computed by the source): Days_Since_Created__c')
    expect(objectOf('CaseComment')).toMatchObject({ compatibility: 'auto', reasons: [] })
    expect(objectOf('Contact').fields.find((f) => f.source === 'Preferred_Language__c')).toMatchObject({ action: 'custom_field', custom: true })
    expect(objectOf('Account').fields.find((f) => f.source === 'acme__Health_Score__c')!.notes).toContain('managed-package field (namespace acme)')
  })

  it('counts the active automation on Case and skips the inactive items', () => {
    const { triggers, flows, workflow_rules } = metadata.automation
    const activeTriggers = triggers.filter((t) => t.TableEnumOrId === 'Case' && t.Status === 'Active')
    const recordFlows = flows.filter((f) => f.TriggerObjectOrEventLabel === 'Case' && f.IsActive && f.TriggerType?.startsWith('Record'))
    const rules = workflow_rules.filter((w) => w.TableEnumOrId === 'Case')
    // The demo org has inactive ones too, so skipping them is what is tested here.
    expect(triggers.some((t) => t.TableEnumOrId === 'Case' && t.Status !== 'Active') || flows.some((f) => f.TriggerObjectOrEventLabel === 'Case' && !f.IsActive)).toBe(true)
    const a = objectOf('Case').automation
    expect(a).toMatchObject({ active_triggers: activeTriggers.length, record_triggered_flows: recordFlows.length, workflow_rules: rules.length })
    expect(a.weighted_score).toBe(3 * activeTriggers.length + 2 * recordFlows.length + rules.length)
    expect(a.weighted_score).toBeGreaterThan(0)
    expect(risks('automation_not_reproduced').find((r) => r.object === 'Case')).toBeDefined()
    expect(report.automation.active_triggers).toBe(triggers.filter((t) => t.Status === 'Active').length)
  })

  it('finds the duplicate emails of the contact sample and the owners with no member', () => {
    const contacts = report.duplicates.find((d) => d.object === 'Contact')!
    expect(contacts.sampled).toBe(metadata.email_samples.Contact.length)
    expect(contacts.duplicate_groups).toBeGreaterThan(0)
    expect(risks('duplicate_emails').map((r) => r.object)).toContain('Contact')
    expect(report.owners.matched).toBe(2)
    expect(report.owners.unmatched).toHaveLength(metadata.users.length - 2)
    expect(risks('owners_unmatched')).toHaveLength(1)
  })

  it('gives a readiness score in a sane range, explained term by term', () => {
    const r = report.readiness
    // Nearly every record imports (4% sit in custom objects with no target); the penalties are the
    // org's high automation and the light duplicates. The six users who are not members yet can
    // be invited: they cost nothing.
    expect(r.score).toBeGreaterThanOrEqual(70)
    expect(r.score).toBeLessThanOrEqual(90)
    expect(r.auto_share).toBeGreaterThan(0) // the comment threads
    expect(r.penalties.map((p) => p.reason)).toEqual([expect.stringMatching(/^automation in the source at level high/), expect.stringMatching(/^duplicate email addresses in the sample of Contact \(\d+ of 700\)$/)])
    const base = 100 * (r.auto_share + r.partial_share * PARTIAL_WEIGHT)
    const expected = Math.round(base - r.penalties.reduce((n, p) => n + p.points, 0))
    expect(Math.abs(r.score - expected)).toBeLessThanOrEqual(1)
    expect(r.explanation).toContain(`${(r.auto_share * 100).toFixed(1)}% of the`)
    expect(r.explanation.endsWith(`${r.score}.`)).toBe(true)
  })

  it('plans the default selection over REST within the allowance', () => {
    expect(report.objects.filter((o) => o.default_selected).map((o) => o.name)).toEqual(['Account', 'Contact', 'Lead', 'Product2', 'Opportunity', 'Case', 'CaseComment', 'Task', 'Event'])
    expect(report.objects.every((o) => o.read_via === 'rest')).toBe(true)
    expect(report.timeline.estimated_api_calls).toBeLessThan(metadata.limits!.remaining)
    expect(risks('api_allowance')).toEqual([])
    expect(report.timeline.phases.map((p) => p.objects)).toEqual([['Account', 'Contact'], ['Lead', 'Product2', 'Opportunity'], ['Case', 'CaseComment'], ['Task', 'Event']])
  })
})

describe('importing the demo org with the analysed mapping', () => {
  const compiled = (name: string) => {
    const o = objectOf(name)
    const keyPrefixes = Object.fromEntries(report.objects.filter((x) => x.key_prefix).map((x) => [x.key_prefix!, x.name]))
    return compileMapping(name, o.fields, { recordTypes: new Map(metadata.record_types.map((r) => [r.Id, r.DeveloperName])), keyPrefixes })
  }
  const rest = async (name: string, fields: string[]) =>
    (await conn.query(`SELECT ${fields.join(', ')} FROM ${name}`).run({ autoFetch: true, maxFetch: 100_000 })).records as unknown as Array<Record<string, unknown>>

  it('selects fields the source accepts and imports every record but those missing a required value', async () => {
    for (const o of report.objects.filter((x) => x.target !== null)) {
      const c = compiled(o.name)
      const records = await rest(o.name, c.sourceFields)
      expect(records, o.name).toHaveLength(o.record_count)
      const failed = records.map((r) => transformRecord(c, r)).filter((r) => !r.ok)
      for (const f of failed) expect(f, o.name).toMatchObject({ code: 'validation_failed', reason: expect.stringMatching(/^(last_name|company) is required but (LastName|Company) is empty$/) })
      if (o.name === 'Contact') expect(failed).toHaveLength(records.filter((r) => typeof r.LastName !== 'string' || r.LastName.trim() === '').length)
      if (o.name === 'Lead') expect(failed).toHaveLength(records.filter((r) => typeof r.Company !== 'string' || r.Company.trim() === '').length)
    }
  })

  it('transforms a Bulk API CSV row exactly like the same record read over REST', async () => {
    for (const name of ['Account', 'Case', 'Event']) {
      const c = compiled(name)
      const json = await rest(name, c.sourceFields)
      const csv = (await (await conn.bulk2.query(`SELECT ${c.sourceFields.join(', ')} FROM ${name}`, { pollInterval: 50, pollTimeout: 10_000 })).toArray()) as Array<Record<string, unknown>>
      const byId = new Map(csv.map((r) => [r.Id, r]))
      expect(typeof csv[0].CreatedDate).toBe('string')
      for (const r of json) expect(transformRecord(c, byId.get(r.Id)!), `${name} ${String(r.Id)}`).toEqual(transformRecord(c, r))
    }
  })
})
