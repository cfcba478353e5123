import { describe, expect, it } from 'vitest'
import { mapObjectFields } from '../../../src/migration/mapping/auto-map.ts'
import { effectiveMappings, validateOverrides } from '../../../src/migration/mapping/effective-mapping.ts'
import { compileMapping, transformRecord } from '../../../src/migration/mapping/transform-record.ts'
import { describeFixture, IN_SCOPE } from './fixtures.ts'

const account = mapObjectFields(describeFixture('Account.PersonAccountsEnabled.describe.json'), { inScope: IN_SCOPE, kind: 'account' })
const contact = mapObjectFields(describeFixture('Contact.describe.json'), { inScope: IN_SCOPE, kind: 'contact' })

describe('validating overrides', () => {
  it('accepts sensible changes', () => {
    expect(validateOverrides('Account', 'account', account, {
      Fax: { action: 'field', target: 'phone' },
      Phone: { action: 'custom_field' },
      AccountNumber: { action: 'ignore' },
      Rating: { action: 'field', target: 'type' },
      Type: { action: 'custom_field' },
    })).toEqual([])
  })

  it('names the unknown source field and the unknown target', () => {
    expect(validateOverrides('Account', 'account', account, { Websit: { action: 'ignore' }, Website: { action: 'field', target: 'webste' } })).toEqual([
      { field: 'field_overrides.Account.Websit', message: 'Account has no field Websit' },
      { field: 'field_overrides.Account.Website', message: 'account has no field webste' },
    ])
  })

  it('refuses a target whose type the source cannot fill, and lookups or numbering the importer owns', () => {
    const errors = validateOverrides('Account', 'account', account, {
      Description: { action: 'field', target: 'employee_count' },
      Industry: { action: 'field', target: 'parent_account_id' },
      PersonBirthdate: { action: 'field', target: 'annual_revenue' },
      BillingAddress: { action: 'custom_field' },
    })
    expect(errors.map((e) => e.field)).toEqual([
      'field_overrides.Account.Description',
      'field_overrides.Account.Industry',
      'field_overrides.Account.PersonBirthdate',
      'field_overrides.Account.BillingAddress',
    ])
    expect(errors[0].message).toBe('a textarea field cannot fill employee_count (integer)')
    expect(errors[1].message).toMatch(/is a link/)
    expect(errors[3].message).toMatch(/compound field/)
    const cases = mapObjectFields(describeFixture('Case.describe.json'), { inScope: IN_SCOPE, kind: 'case' })
    expect(validateOverrides('Case', 'case', cases, { CaseNumber: { action: 'field', target: 'case_number' } })[0].message).toBe('case_number is set by the importer itself')
  })

  it('refuses two source fields for one target, on the override that adds the second', () => {
    expect(validateOverrides('Account', 'account', account, { Fax: { action: 'field', target: 'phone' } })).toEqual([
      { field: 'field_overrides.Account.Fax', message: 'phone is already filled from Phone: map only one source field to it' },
    ])
  })

  it('refuses to leave a required target field with no source', () => {
    expect(validateOverrides('Contact', 'contact', contact, { LastName: { action: 'custom_field' } })).toEqual([
      { field: 'field_overrides.Contact.LastName', message: 'last_name is required in the service: map a source field to it or keep LastName mapped' },
    ])
    expect(validateOverrides('Contact', 'contact', contact, { LastName: { action: 'custom_field' }, AssistantName: { action: 'field', target: 'last_name' } })).toEqual([])
  })

  it('lets a formula field be kept as a snapshot, and says so', () => {
    const overrides = { npsp__Membership_Span__c: { action: 'custom_field' }, Type: { action: 'ignore' }, npsp__Membership_Status__c: { action: 'field', target: 'type' } } as const
    expect(validateOverrides('Account', 'account', account, overrides)).toEqual([])
    const eff = effectiveMappings(account, overrides, 'account')
    const span = eff.find((m) => m.source === 'npsp__Membership_Span__c')!
    expect(span).toMatchObject({ action: 'custom_field', transform: 'decimal', calculated: true })
    expect(span.notes.join()).toMatch(/computed by the source at migration time is imported, and never recalculated/)
    const status = eff.find((m) => m.source === 'npsp__Membership_Status__c')!
    expect(status).toMatchObject({ action: 'field', target: 'type', transform: 'text', status: 'lossy' })
    expect(status.notes.join()).toMatch(/up to 1300 characters in the source, 120 in the service/)
    expect(compileMapping('Account', eff, { recordTypes: new Map() }).sourceFields).toContain('npsp__Membership_Span__c')
  })
})

describe('applying overrides', () => {
  it('changes only the overridden fields, and the import follows', () => {
    const eff = effectiveMappings(contact, { HomePhone: { action: 'field', target: 'phone' }, Phone: { action: 'ignore' }, Title: { action: 'custom_field' } }, 'contact')
    expect(eff.filter((m, i) => m !== contact[i]).map((m) => m.source).sort()).toEqual(['HomePhone', 'Phone', 'Title'])
    const compiled = compileMapping('Contact', eff, { recordTypes: new Map() })
    expect(compiled.sourceFields).not.toContain('Phone')
    const r = transformRecord(compiled, { Id: '0035g0000000001AAA', CreatedDate: '2019-01-06T01:45:42.857+0000', LastName: 'Lee', HomePhone: '555-0101', Title: 'CFO' })
    expect(r.ok && r.record.fields.phone).toBe('555-0101')
    expect(r.ok && r.record.custom_fields.Title).toBe('CFO')
    expect(r.ok && 'title' in r.record.fields).toBe(false)
  })

  it('stops a derived domain from overwriting a domain mapped from its own field', () => {
    const eff = effectiveMappings(account, { Site: { action: 'field', target: 'domain' } }, 'account')
    const compiled = compileMapping('Account', eff, { recordTypes: new Map() })
    const r = transformRecord(compiled, { Id: '0015g0000000001AAA', CreatedDate: '2019-01-06T01:45:42.857+0000', Name: 'Acme', Website: 'https://www.acme.com', Site: 'acme-hq.example' })
    expect(r.ok && r.record.fields).toMatchObject({ website: 'https://www.acme.com', domain: 'acme-hq.example' })
  })

  it('throws on an override that validation would refuse', () => {
    expect(() => effectiveMappings(contact, { Nope: { action: 'ignore' } }, 'contact')).toThrow(/no source field Nope/)
  })
})
