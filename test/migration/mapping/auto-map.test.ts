import { describe, expect, it } from 'vitest'
import { mapObjectFields } from '../../../src/migration/mapping/auto-map.ts'
import type { FieldMapping, SourceDescribe } from '../../../src/migration/migration.types.ts'
import { describeFixture, IN_SCOPE } from './fixtures.ts'

const byName = (fields: FieldMapping[]) => new Map(fields.map((f) => [f.source, f]))

function mapFixture(file: string, kind: Parameters<typeof mapObjectFields>[1]['kind'], inScope: ReadonlySet<string> = IN_SCOPE) {
  const d = describeFixture(file)
  return { describe: d, fields: byName(mapObjectFields(d, { inScope, kind })) }
}

describe('mapping the real Account describe', () => {
  const { describe: d, fields } = mapFixture('Account.describe.json', 'account')

  it('gives every field of the describe a mapping, in describe order', () => {
    expect([...fields.keys()]).toEqual(d.fields.map((f) => f.name))
    for (const m of fields.values()) {
      if (m.action === 'ignore' || m.action === 'custom_field') expect(m.status).toBe('unmapped')
      if (m.action === 'ignore') expect(m.notes.length).toBeGreaterThan(0)
    }
  })

  it('maps the billing address parts exactly and ignores the compound BillingAddress', () => {
    expect(fields.get('BillingStreet')).toMatchObject({ action: 'field', target: 'billing_street', transform: 'text', status: 'exact' })
    for (const [s, t] of [['BillingCity', 'billing_city'], ['BillingState', 'billing_state'], ['BillingPostalCode', 'billing_postal_code'], ['BillingCountry', 'billing_country']]) {
      expect(fields.get(s)).toMatchObject({ action: 'field', target: t, status: 'exact' })
    }
    const compound = fields.get('BillingAddress')!
    expect(compound.action).toBe('ignore')
    expect(compound.notes.join()).toMatch(/compound field: its parts \(BillingStreet, BillingCity/)
    expect(fields.get('BillingLatitude')).toMatchObject({ action: 'custom_field', transform: 'decimal' })
    expect(fields.get('ShippingStreet')).toMatchObject({ action: 'custom_field', transform: 'text' })
  })

  it('maps the required Name, the website with its derived domain, owner, parent and record type', () => {
    expect(fields.get('Name')).toMatchObject({ action: 'field', target: 'name', required: true, status: 'exact' })
    expect(fields.get('Website')).toMatchObject({ action: 'field', target: 'website', transform: 'url', derived: [{ target: 'domain', rule: 'domain' }] })
    expect(fields.get('OwnerId')).toMatchObject({ action: 'owner', target: 'owner_id' })
    expect(fields.get('ParentId')).toMatchObject({ action: 'reference', targets: { Account: 'parent_account_id' }, status: 'exact' })
    expect(fields.get('RecordTypeId')).toMatchObject({ action: 'custom_field', transform: 'record_type' })
    expect(fields.get('AnnualRevenue')).toMatchObject({ target: 'annual_revenue', transform: 'decimal' })
    expect(fields.get('NumberOfEmployees')).toMatchObject({ target: 'employee_count', transform: 'integer' })
  })

  it('ignores system fields with a reason and keeps the hand-added custom fields (custom: false in the file) as custom', () => {
    expect(fields.get('SystemModstamp')).toMatchObject({ action: 'ignore' })
    expect(fields.get('Id')!.notes[0]).toMatch(/src_id/)
    expect(fields.get('CreatedDate')!.notes[0]).toMatch(/created_at/)
    expect(fields.get('History__c')).toMatchObject({ action: 'custom_field', custom: true, transform: 'text' })
    expect(fields.get('ns__LinkedAccount__c')).toMatchObject({ action: 'custom_field', custom: true })
    expect(fields.get('ns__LinkedAccount__c')!.notes.join()).toMatch(/namespace ns/)
    expect(fields.get('DandbCompanyId')!.notes.join()).toMatch(/DandBCompany, which is not imported: the source id is kept/)
  })
})

describe('mapping the real Contact, Case and Lead describes', () => {
  it('maps contact names and links, and keeps the name parts the service lacks in custom_fields', () => {
    const { fields } = mapFixture('Contact.describe.json', 'contact')
    expect(fields.get('LastName')).toMatchObject({ action: 'field', target: 'last_name', required: true })
    expect(fields.get('FirstName')).toMatchObject({ target: 'first_name' })
    expect(fields.get('Salutation')).toMatchObject({ action: 'custom_field' })
    expect(fields.get('Name')).toMatchObject({ action: 'ignore' })
    expect(fields.get('AccountId')).toMatchObject({ action: 'reference', targets: { Account: 'account_id' } })
    expect(fields.get('Email')).toMatchObject({ target: 'email', transform: 'email' })
    expect(fields.get('MailingPostalCode')).toMatchObject({ target: 'mailing_postal_code' })
    expect(fields.get('LeadSource')).toMatchObject({ target: 'lead_source', transform: 'text' })
    expect(fields.get('HomePhone')).toMatchObject({ action: 'custom_field' })
  })

  it('maps the case status picklist to the case enumeration value by value', () => {
    const { fields } = mapFixture('Case.describe.json', 'case')
    const status = fields.get('Status')!
    expect(status).toMatchObject({ action: 'field', target: 'status', transform: 'enum', status: 'exact' })
    expect(status.picklist).toEqual({
      values: [
        { source: 'New', target: 'new' },
        { source: 'Working', target: 'working' },
        { source: 'Escalated', target: 'escalated' },
        { source: 'Closed', target: 'closed' },
      ],
      fallback: 'new',
    })
    expect(fields.get('Priority')!.picklist!.values.map((v) => v.target)).toEqual(['high', 'medium', 'low'])
    expect(fields.get('IsEscalated')).toMatchObject({ target: 'is_escalated', transform: 'boolean' })
    expect(fields.get('ClosedDate')).toMatchObject({ target: 'closed_at', transform: 'datetime' })
    expect(fields.get('CaseNumber')).toMatchObject({ action: 'custom_field' })
    expect(fields.get('ContactId')).toMatchObject({ action: 'reference', targets: { Contact: 'contact_id' } })
    expect(fields.get('OwnerId')!.notes.join()).toMatch(/owned by a queue get no owner/)
  })

  it('maps lead conversion: the date as midnight UTC and the three converted-to links', () => {
    const { fields } = mapFixture('Lead.describe.json', 'lead')
    expect(fields.get('Company')).toMatchObject({ target: 'company', required: true })
    expect(fields.get('ConvertedDate')).toMatchObject({ target: 'converted_at', transform: 'datetime', status: 'exact' })
    expect(fields.get('ConvertedOpportunityId')).toMatchObject({ action: 'reference', targets: { Opportunity: 'converted_opportunity_id' } })
    expect(fields.get('IsConverted')).toMatchObject({ action: 'ignore' })
    expect(fields.get('Street')).toMatchObject({ action: 'custom_field' })
    expect(fields.get('Status')!.picklist!.values.map((v) => v.target)).toEqual(['new', 'working', 'converted', 'unqualified'])
  })

  it('marks the opportunity stages that share needs_analysis as lossy, with the reason', () => {
    const { fields } = mapFixture('Opportunity.describe.json', 'opportunity')
    const stage = fields.get('StageName')!
    expect(stage.status).toBe('lossy')
    expect(stage.notes.join(' ')).toMatch(/Value Proposition, Id\. Decision Makers, Perception Analysis all become needs_analysis/)
    expect(fields.get('CampaignId')).toMatchObject({ action: 'custom_field' })
  })
})

describe('polymorphic lookups of the real Event describe', () => {
  it('maps WhoId to contact or lead, and WhatId to the three in-scope kinds with the others noted', () => {
    const { fields } = mapFixture('Event.describe.json', 'activity')
    expect(fields.get('WhoId')).toMatchObject({ action: 'reference', targets: { Contact: 'contact_id', Lead: 'lead_id' }, status: 'exact' })
    const what = fields.get('WhatId')!
    expect(what).toMatchObject({ action: 'reference', targets: { Account: 'account_id', Opportunity: 'opportunity_id', Case: 'case_id' }, status: 'lossy' })
    expect(what.reference_to).toHaveLength(80)
    expect(what.notes.join()).toMatch(/77 other object types .* not imported/)
    expect(fields.get('StartDateTime')).toMatchObject({ target: 'start_at', transform: 'datetime' })
    expect(fields.get('ActivityDateTime')).toMatchObject({ action: 'ignore' })
  })

  it('leaves WhoId -> Lead out when leads are not in the org', () => {
    const { fields } = mapFixture('Event.describe.json', 'activity', new Set(['Account', 'Contact', 'Case']))
    expect(fields.get('WhoId')).toMatchObject({ targets: { Contact: 'contact_id' }, status: 'lossy' })
    expect(fields.get('WhatId')!.targets).toEqual({ Account: 'account_id', Case: 'case_id' })
  })
})

describe('formula fields and objects with no target', () => {
  it('ignores the formula fields of the person-account describe as computed by the source', () => {
    const { fields } = mapFixture('Account.PersonAccountsEnabled.describe.json', 'account')
    const span = fields.get('npsp__Membership_Span__c')!
    expect(span).toMatchObject({ action: 'ignore', calculated: true, status: 'unmapped' })
    expect(span.notes).toContain('formula field: computed by the source, not imported')
    expect(fields.get('IsPersonAccount')).toMatchObject({ action: 'custom_field' })
    expect(fields.get('npsp__Funding_Focus__c')).toMatchObject({ action: 'custom_field', transform: 'multipicklist' })
    expect(fields.get('PersonEmail')).toMatchObject({ action: 'custom_field' })
  })

  it('ignores every field of an object with no target, saying why', () => {
    const d: SourceDescribe = describeFixture('OpportunityContactRole.describe.json')
    const fields = mapObjectFields(d, { inScope: IN_SCOPE, kind: null })
    expect(fields.every((f) => f.action === 'ignore')).toBe(true)
    expect(fields.find((f) => f.source === 'Role')!.notes[0]).toMatch(/OpportunityContactRole has no target/)
  })

  it('marks text longer than the target field as lossy (truncation risk)', () => {
    const d = describeFixture('Contact.describe.json')
    const title = d.fields.find((f) => f.name === 'Title')!
    const long = { ...d, fields: [{ ...title, length: 300 }] }
    const [m] = mapObjectFields(long, { inScope: IN_SCOPE, kind: 'contact' })
    expect(m).toMatchObject({ target: 'title', status: 'lossy' })
    expect(m.notes.join()).toMatch(/up to 300 characters in the source, 255 in the service/)
  })
})
