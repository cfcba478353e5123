// Shared by the mapping and analysis tests: the real describe bodies and sObject-tree records of
// ../shared/fixtures/salesforce, and SourceMetadata assembled from them (counts chosen by the test).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { SourceDescribe, SourceGlobalEntry, SourceMetadata } from '../../../src/migration/migration.types.ts'

export const FIXTURES = resolve(import.meta.dirname, '../../../../shared/fixtures/salesforce')

export function describeFixture(file: string): SourceDescribe {
  return JSON.parse(readFileSync(resolve(FIXTURES, 'describe', file), 'utf8')) as SourceDescribe
}

export function globalFixture(): SourceGlobalEntry[] {
  return (JSON.parse(readFileSync(resolve(FIXTURES, 'describe/describeGlobal.json'), 'utf8')) as { sobjects: SourceGlobalEntry[] }).sobjects
}

/** The records of one sObject-tree file, `attributes` and all. */
export function treeRecords(path: string): Array<Record<string, unknown>> {
  return (JSON.parse(readFileSync(resolve(FIXTURES, 'sobject-tree', path), 'utf8')) as { records: Array<Record<string, unknown>> }).records
}

/** A describeGlobal entry made from a describe body (its top-level keys are the same). */
export function globalEntryOf(d: SourceDescribe): SourceGlobalEntry {
  const { fields: _f, childRelationships: _c, recordTypeInfos: _r, ...top } = d
  return top as unknown as SourceGlobalEntry
}

export const IN_SCOPE = new Set(['Account', 'Contact', 'Lead', 'Opportunity', 'Product2', 'Case', 'CaseComment', 'Task', 'Event'])

const DESCRIBES: Record<string, string> = {
  Account: 'Account.describe.json',
  Contact: 'Contact.describe.json',
  Case: 'Case.describe.json',
  Lead: 'Lead.describe.json',
  Opportunity: 'Opportunity.describe.json',
  Event: 'Event.describe.json',
  OpportunityContactRole: 'OpportunityContactRole.describe.json',
}

/**
 * The fixture org: the real describeGlobal (plus the custom setting Custom__c, which the recorded
 * describeGlobal lacks), the real describes, the given counts, and a little automation.
 */
export function fixtureMetadata(opts: { personAccounts?: boolean; counts?: Record<string, number> } = {}): SourceMetadata {
  const describes: Record<string, SourceDescribe> = {}
  for (const [name, file] of Object.entries(DESCRIBES)) describes[name] = describeFixture(file)
  if (opts.personAccounts) describes.Account = describeFixture('Account.PersonAccountsEnabled.describe.json')
  const custom = describeFixture('Custom__c.describe.json')
  return {
    instance_url: 'https://orgname.my.salesforce.com',
    api_version: '62.0',
    organization_id: '00D000000000001AAA',
    environment: 'production',
    global: [...globalFixture(), globalEntryOf(custom)],
    describes,
    counts: opts.counts ?? { Account: 1200, Contact: 3400, Case: 900, Lead: 500, Opportunity: 300, Event: 2500, Campaign: 19, CampaignMember: 0, OpportunityContactRole: 40 },
    automation: { triggers: [], flows: [], workflow_rules: [], unavailable: [] },
    users: [
      { Id: '005000000000001AAA', Name: 'Ada Admin', Email: 'ada@example.com', IsActive: true },
      { Id: '005000000000002AAA', Name: 'Ben Sales', Email: 'Ben@Example.com ', IsActive: true },
    ],
    record_types: [],
    limits: { max: 15_000, remaining: 14_000 },
    email_samples: { Contact: ['ann@x.com', 'Ann@X.com ', 'bob@y.org'], Lead: ['carl@z.net'] },
  }
}
