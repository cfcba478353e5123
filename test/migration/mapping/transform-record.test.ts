import { describe, expect, it } from 'vitest'
import { mapObjectFields } from '../../../src/migration/mapping/auto-map.ts'
import { compileMapping, transformRecord, type CompileOptions, type TransformResult } from '../../../src/migration/mapping/transform-record.ts'
import type { KindName } from '../../../src/records/record-kind.ts'
import type { SourceDescribe, SourceField, TransformedRecord } from '../../../src/migration/migration.types.ts'
import { describeFixture, IN_SCOPE, treeRecords } from './fixtures.ts'

const NO_TYPES: CompileOptions = { recordTypes: new Map() }

function compile(d: SourceDescribe, kind: KindName, opts: CompileOptions = NO_TYPES) {
  return compileMapping(d.name, mapObjectFields(d, { inScope: IN_SCOPE, kind }), opts)
}

/** A tree record as the platform would return it: with an Id and a CreatedDate, without `attributes`. */
function sourced(r: Record<string, unknown>, id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { attributes: _a, ...rest } = r
  return { Id: id, CreatedDate: '2019-01-06T01:45:42.857+0000', ...rest, ...extra }
}

function ok(r: TransformResult): TransformedRecord {
  if (!r.ok) throw new Error(`expected a record, got ${r.code}: ${r.reason}`)
  return r.record
}

const f = (name: string, type: string, extra: Partial<SourceField> = {}): SourceField => ({
  name, label: name, type, custom: false, calculated: false, createable: true, nillable: true, defaultedOnCreate: false, ...extra,
})
const picklist = (...values: string[]) => values.map((value) => ({ value, label: value, active: true, defaultValue: false }))
const SYSTEM = [f('Id', 'id', { createable: false, nillable: false }), f('CreatedDate', 'datetime', { createable: false }), f('IsDeleted', 'boolean', { createable: false })]

/** The platform's Task and CaseComment, as far as the import reads them (the fixtures have no describe of either). */
const TASK: SourceDescribe = {
  name: 'Task', label: 'Task', custom: false, keyPrefix: '00T',
  fields: [
    ...SYSTEM,
    f('WhoId', 'reference', { referenceTo: ['Contact', 'Lead'], polymorphicForeignKey: true }),
    f('WhatId', 'reference', { referenceTo: ['Account', 'Opportunity', 'Case', 'Campaign'], polymorphicForeignKey: true }),
    f('Subject', 'combobox', { length: 255, picklistValues: picklist('Call', 'Send Letter') }),
    f('ActivityDate', 'date'),
    f('Status', 'picklist', { nillable: false, defaultedOnCreate: true, picklistValues: picklist('Not Started', 'In Progress', 'Completed', 'Waiting on someone else', 'Deferred') }),
    f('Priority', 'picklist', { nillable: false, defaultedOnCreate: true, picklistValues: picklist('High', 'Normal', 'Low') }),
    f('TaskSubtype', 'picklist', { picklistValues: picklist('Task', 'Email', 'Call') }),
    f('RecordTypeId', 'reference', { referenceTo: ['RecordType'] }),
    f('OwnerId', 'reference', { referenceTo: ['Group', 'User'], nillable: false, defaultedOnCreate: true }),
    f('Description', 'textarea', { length: 32000 }),
  ],
}
const CASE_COMMENT: SourceDescribe = {
  name: 'CaseComment', label: 'Case Comment', custom: false, keyPrefix: '00a',
  fields: [
    ...SYSTEM,
    f('ParentId', 'reference', { referenceTo: ['Case'], nillable: false }),
    f('IsPublished', 'boolean', { nillable: false, defaultedOnCreate: true }),
    f('CommentBody', 'textarea', { length: 4000 }),
    f('CreatedById', 'reference', { referenceTo: ['User'], createable: false, nillable: false }),
  ],
}

describe('transforming sObject-tree sample records', () => {
  it('imports a real account: address parts, exact revenue, derived domain, kept extras', () => {
    const compiled = compile(describeFixture('Account.describe.json'), 'account')
    const r = ok(transformRecord(compiled, sourced(treeRecords('de-org-sample-data/Account.json')[0], '0015g0000000001AAA')))
    expect(r.src_id).toBe('0015g0000000001AAA')
    expect(r.created_at.toISOString()).toBe('2019-01-06T01:45:42.857Z')
    expect(r.fields).toMatchObject({
      name: 'Burlington Textiles Corp of America',
      billing_street: '525 S. Lexington Ave',
      billing_city: 'Burlington',
      billing_state: 'NC',
      billing_postal_code: '27215',
      billing_country: 'USA',
      annual_revenue: '350000000.00',
      employee_count: 9000,
      industry: 'Apparel',
      type: 'Customer - Direct',
      phone: '(336) 222-7000',
      website: 'https://www.burlington.com',
      domain: 'burlington.com',
      description: null,
    })
    expect(r.custom_fields).toMatchObject({ Fax: '(336) 222-8000', AccountNumber: 'CD656092', Rating: 'Warm', Sic: '546732' })
    // Data.com's CleanStatus is ignored; NumberofLocations__c is not in this describe, so it is never selected.
    expect(r.custom_fields).not.toHaveProperty('CleanStatus')
    expect(r.custom_fields).not.toHaveProperty('NumberofLocations__c')
    expect(r.warnings).toEqual([])
  })

  it('reads field names case-insensitively, as sObject-tree files write them (accountId)', () => {
    const compiled = compile(describeFixture('Contact.describe.json'), 'contact')
    const r = ok(transformRecord(compiled, sourced(treeRecords('apex-recipes/Contacts.json')[0], '0035g0000000001AAA')))
    expect(r.fields).toMatchObject({ first_name: 'Lianna', last_name: 'Sinisbury', email: 'lsinisbury0@dropbox.com', title: 'Statistician I' })
    expect(r.references).toEqual([{ field: 'account_id', object: 'Account', src_id: '@AccountRef10', source: 'AccountId' }])
  })

  it('imports every de-org case with its status and priority as enumeration values', () => {
    const compiled = compile(describeFixture('Case.describe.json'), 'case')
    const cases = treeRecords('de-org-sample-data/Case.json').map((c, i) => ok(transformRecord(compiled, sourced(c, `5005g00000000${String(i).padStart(2, '0')}AAA`))))
    expect(cases).toHaveLength(26)
    for (const c of cases) {
      expect(['new', 'working', 'escalated', 'on_hold', 'closed']).toContain(c.fields.status)
      expect(['low', 'medium', 'high', 'critical']).toContain(c.fields.priority)
      expect(c.fields.is_escalated).toBe(false)
    }
    expect(cases[0].fields).toMatchObject({ subject: 'Cannot start generator after electrical failure', status: 'closed', priority: 'medium', origin: 'Phone', type: 'Electrical' })
    expect(cases[0].custom_fields).toMatchObject({ Reason: 'Equipment Complexity' })
  })

  it('imports a health-cloud task: owner, record type by developer name, unresolvable WhatId kept', () => {
    const compiled = compile(TASK, 'activity', { recordTypes: new Map([['0120R000001W1bhQAC', 'CarePlanTask']]) })
    const r = ok(transformRecord(compiled, sourced(treeRecords('health-cloud-adk/Task.json')[0], '00T5g0000000001AAA')))
    expect(r.fields).toMatchObject({ kind: 'task', subject: 'Weekly Check-In', status: 'open', priority: 'normal', due_date: '2020-01-13' })
    expect(r.owner).toEqual({ field: 'owner_id', src_id: '0050R000004HCMpQAO' })
    expect(r.custom_fields.RecordTypeId).toBe('CarePlanTask')
    // '@CharlesGreen_CarePlan' is a tree-file reference, no id: its prefix names no object, so it is kept.
    expect(r.custom_fields.WhatId).toBe('@CharlesGreen_CarePlan')
    expect(r.references).toEqual([])
  })
})

describe('values as the Bulk API CSV gives them', () => {
  const compiled = compile(describeFixture('Case.describe.json'), 'case')
  const account = compile(describeFixture('Account.describe.json'), 'account')

  it('reads "true", "12.5" and "" (null) like their JSON forms', () => {
    const base = { Id: '5005g0000000001AAA', CreatedDate: '2019-01-06T01:45:42.000Z', Subject: 'Broken', Status: 'New', Priority: 'High' }
    const csv = ok(transformRecord(compiled, { ...base, IsEscalated: 'true', ClosedDate: '', AccountId: '', Description: '' }))
    const json = ok(transformRecord(compiled, { ...base, IsEscalated: true, ClosedDate: null, AccountId: null, Description: null }))
    expect(csv.fields).toEqual(json.fields)
    expect(csv.fields.is_escalated).toBe(true)
    expect(csv.references).toEqual([])
    const a = ok(transformRecord(account, { Id: '0015g0000000001AAA', CreatedDate: '2019-01-06T01:45:42.000Z', Name: 'Acme', AnnualRevenue: '12.5', NumberOfEmployees: '', BillingLatitude: '48.8566' }))
    expect(a.fields).toMatchObject({ annual_revenue: '12.50', employee_count: null })
    expect(a.custom_fields.BillingLatitude).toBe(48.8566)
  })

  it('gives target defaults for empty enums and booleans', () => {
    const r = ok(transformRecord(compiled, { Id: '5005g0000000001AAA', CreatedDate: '2019-01-06T01:45:42.000Z', Subject: 'x', Status: '', Priority: null, IsEscalated: '' }))
    expect(r.fields).toMatchObject({ status: 'new', priority: 'medium', is_escalated: false })
  })
})

describe('records that cannot be imported', () => {
  const contact = compile(describeFixture('Contact.describe.json'), 'contact')
  const lead = compile(describeFixture('Lead.describe.json'), 'lead')
  const comment = compile(CASE_COMMENT, 'case_comment')
  const base = { Id: '0035g0000000001AAA', CreatedDate: '2019-01-06T01:45:42.857+0000' }

  it('fails a contact whose LastName is empty or blank', () => {
    expect(transformRecord(contact, { ...base, LastName: '' })).toEqual({ ok: false, code: 'validation_failed', reason: 'last_name is required but LastName is empty' })
    expect(transformRecord(contact, { ...base, LastName: '   ' })).toMatchObject({ ok: false, code: 'validation_failed' })
    // Invisible characters alone are blank too, as the API has it (src/shared/required-text.ts).
    for (const blank of ['\u200b', '\u2060\u200d', '\u2800', ' \u3164 ']) {
      expect(transformRecord(contact, { ...base, LastName: blank }), JSON.stringify(blank)).toEqual({ ok: false, code: 'validation_failed', reason: 'last_name is required but LastName is blank' })
    }
  })

  it('fails a lead with a null Company', () => {
    expect(transformRecord(lead, { ...base, Id: '00Q5g0000000001AAA', LastName: 'Lee', Company: null })).toEqual({ ok: false, code: 'validation_failed', reason: 'company is required but Company is empty' })
  })

  it('fails a comment with an empty body, or without its case', () => {
    const c = { Id: '00a5g0000000001AAA', CreatedDate: base.CreatedDate, ParentId: '5005g0000000001AAA', IsPublished: false, CreatedById: '0055g0000000001AAA' }
    expect(transformRecord(comment, { ...c, CommentBody: '' })).toEqual({ ok: false, code: 'validation_failed', reason: 'body is required but CommentBody is empty' })
    expect(transformRecord(comment, { ...c, CommentBody: '\n\t\u00a0\u200b' })).toEqual({ ok: false, code: 'validation_failed', reason: 'body is required but CommentBody is blank' })
    expect(transformRecord(comment, { ...c, CommentBody: 'hi', ParentId: null })).toEqual({ ok: false, code: 'validation_failed', reason: 'case_id is required but ParentId is empty' })
    const r = ok(transformRecord(comment, { ...c, CommentBody: 'Internal note', IsPublished: 'false' }))
    expect(r.fields).toEqual({ body: 'Internal note', is_public: false })
    expect(r.references).toEqual([{ field: 'case_id', object: 'Case', src_id: '5005g0000000001AAA', source: 'ParentId' }])
    expect(r.owner).toEqual({ field: 'author_user_id', src_id: '0055g0000000001AAA' })
  })


  it('fails a record without an Id or a readable CreatedDate', () => {
    expect(transformRecord(contact, { CreatedDate: base.CreatedDate, LastName: 'Lee' })).toMatchObject({ ok: false, reason: 'Id is empty' })
    expect(transformRecord(contact, { Id: base.Id, CreatedDate: 'soon', LastName: 'Lee' })).toMatchObject({ ok: false, code: 'validation_failed' })
  })
})

describe('values changed on the way, with a warning', () => {
  const contact = compile(describeFixture('Contact.describe.json'), 'contact')
  const account = compile(describeFixture('Account.describe.json'), 'account')
  const base = { Id: '0015g0000000001AAA', CreatedDate: '2019-01-06T01:45:42.857+0000', Name: 'Acme' }

  it('cuts over-long text to the target length', () => {
    const r = ok(transformRecord(contact, { ...base, LastName: 'Lee', Description: 'x'.repeat(40_000), Title: 'T'.repeat(300) }))
    expect((r.fields.description as string).length).toBe(32_000)
    expect((r.fields.title as string).length).toBe(255)
    expect(r.warnings).toEqual([
      { code: 'truncated', field: 'Title', reason: 'Title: 300 characters cut to 255; the whole text kept in custom_fields' },
      { code: 'truncated', field: 'Description', reason: 'Description: 40000 characters cut to 32000; the whole text kept in custom_fields' },
    ])
    expect(r.custom_fields).toMatchObject({ Title: 'T'.repeat(300), Description: 'x'.repeat(40_000) })
  })

  it('imports a contact whose email the source accepted but the service refuses, keeping the address', () => {
    for (const email of ['j.davis@expressl&t.net', 'lee at example.com', 'jörg@example.com']) {
      const r = ok(transformRecord(contact, { ...base, LastName: 'Lee', Email: email }))
      expect(r.fields.email).toBeNull()
      expect(r.custom_fields.Email).toBe(email)
      expect(r.warnings).toEqual([{ code: 'invalid_email', field: 'Email', reason: `Email: ${JSON.stringify(email)} is not an email address the service accepts; kept in custom_fields` }])
    }
  })

  it("writes addresses the service's rule accepts as they are", () => {
    for (const email of ["o'brien@example.com", 'user+tag@sub.example.co.uk', 'a&b@example.com']) {
      const r = ok(transformRecord(contact, { ...base, LastName: 'Lee', Email: email }))
      expect(r.fields.email).toBe(email)
      expect(r.custom_fields).toEqual({})
    }
  })


  it('never cuts a character in half', () => {
    const r = ok(transformRecord(contact, { ...base, LastName: 'L' + '😀'.repeat(60) }))
    const last = r.fields.last_name as string
    expect(last.length).toBe(119)
    expect(last.endsWith('😀')).toBe(true)
  })

  it('leaves an unusable website out, keeps it in custom_fields, and still derives no domain', () => {
    const r = ok(transformRecord(account, { ...base, Website: 'see brochure' }))
    expect(r.fields).toMatchObject({ website: null, domain: null })
    expect(r.custom_fields.Website).toBe('see brochure')
    expect(r.warnings.map((w) => w.code)).toEqual(['invalid_url'])
  })

  it('leaves out numbers beyond the target range and keeps them in custom_fields', () => {
    const r = ok(transformRecord(account, { ...base, NumberOfEmployees: 20_000_000, AnnualRevenue: 'lots' }))
    expect(r.fields).toMatchObject({ employee_count: null, annual_revenue: null })
    expect(r.custom_fields).toMatchObject({ NumberOfEmployees: 20_000_000, AnnualRevenue: 'lots' })
    expect(r.warnings.map((w) => w.code).sort()).toEqual(['invalid_number', 'out_of_range'])
  })

  it('keeps custom_fields within the API limit of 64 KB', () => {
    const r = ok(transformRecord(account, { ...base, History__c: 'h'.repeat(32_000), ns__Description__c: 'é'.repeat(32_000) }))
    expect(Buffer.byteLength(JSON.stringify(r.custom_fields))).toBeLessThanOrEqual(64 * 1024)
    expect(r.warnings).toContainEqual(expect.objectContaining({ code: 'custom_fields_truncated', field: 'custom_fields' }))
  })
})

describe('values written differently keep the original under the source field name', () => {
  const contact = compile(describeFixture('Contact.describe.json'), 'contact')
  const account = compile(describeFixture('Account.describe.json'), 'account')
  const opportunity = compile(describeFixture('Opportunity.describe.json'), 'opportunity')
  const base = { Id: '0015g0000000001AAA', CreatedDate: '2019-01-06T01:45:42.857+0000', Name: 'Acme' }

  it('gives a bare host a scheme and keeps what the source held', () => {
    const r = ok(transformRecord(account, { ...base, Website: 'www.example.com' }))
    expect(r.fields).toMatchObject({ website: 'https://www.example.com', domain: 'example.com' })
    expect(r.custom_fields).toEqual({ Website: 'www.example.com' })
    expect(r.warnings).toEqual([])
    expect(ok(transformRecord(account, { ...base, Website: 'https://example.com/about' })).custom_fields).toEqual({})
  })

  it('writes an internationalised address in ASCII form, keeping the original', () => {
    const site = ok(transformRecord(account, { ...base, Website: 'https://münchen.de/' }))
    expect(site.fields.website).toBe('https://xn--mnchen-3ya.de/')
    expect(site.custom_fields.Website).toBe('https://münchen.de/')
    const mail = ok(transformRecord(contact, { ...base, LastName: 'Lee', Email: 'info@bücher.de' }))
    expect(mail.fields.email).toBe('info@xn--bcher-kva.de')
    expect(mail.custom_fields.Email).toBe('info@bücher.de')
  })

  it('keeps trimmed text, rounded numbers and dates cut from a date and time', () => {
    const c = ok(transformRecord(contact, { ...base, LastName: '  Lee ', Email: '  Lee@Example.com ', Birthdate: '1980-05-01T00:00:00.000+0000' }))
    expect(c.fields).toMatchObject({ last_name: 'Lee', email: 'Lee@Example.com' })
    expect(c.custom_fields).toEqual({ LastName: '  Lee ', Email: '  Lee@Example.com ', Birthdate: '1980-05-01T00:00:00.000+0000' })
    const o = ok(transformRecord(opportunity, { ...base, Id: '0065g0000000001AAA', StageName: 'Prospecting', CloseDate: '2024-01-31', Amount: '1250.005' }))
    expect(o.fields.amount).toBe('1250.01')
    expect(o.custom_fields).toEqual({ Amount: '1250.005' })
    expect(ok(transformRecord(opportunity, { ...base, Id: '0065g0000000001AAA', StageName: 'Prospecting', CloseDate: '2024-01-31', Amount: 1250.5 })).custom_fields).toEqual({})
  })
})

describe('picklist values with no match or a shared target', () => {
  const task = compile(TASK, 'activity')
  const base = { Id: '00T5g0000000001AAA', CreatedDate: '2019-01-06T01:45:42.857+0000', Subject: 'Call back' }

  it('gives an unmatched value the target default and keeps the original in custom_fields', () => {
    const r = ok(transformRecord(task, { ...base, Status: 'Blocked by legal', Priority: 'Normal' }))
    expect(r.fields.status).toBe('open')
    expect(r.custom_fields.Status).toBe('Blocked by legal')
  })

  it('keeps the original of values that share a target (Deferred -> open), not of one-to-one values', () => {
    const deferred = ok(transformRecord(task, { ...base, Status: 'Deferred', Priority: 'High' }))
    expect(deferred.fields).toMatchObject({ status: 'open', priority: 'high' })
    expect(deferred.custom_fields).toEqual({ Status: 'Deferred' })
    const done = ok(transformRecord(task, { ...base, Status: 'Completed', Priority: 'Low' }))
    expect(done.custom_fields).toEqual({})
  })

  it('treats a value named like a JavaScript object member as any unmatched value', () => {
    for (const status of ['constructor', '__proto__', 'toString']) {
      const r = ok(transformRecord(task, { ...base, Status: status }))
      expect(r.fields.status).toBe('open')
      expect(r.custom_fields.Status).toBe(status)
    }
  })

  it('matches a value the describe did not list by its wording, keeping the original', () => {
    const r = ok(transformRecord(task, { ...base, Status: 'Cancelled by customer' }))
    expect(r.fields.status).toBe('cancelled')
    expect(r.custom_fields.Status).toBe('Cancelled by customer')
  })
})

describe('record rules', () => {
  const lead = compile(describeFixture('Lead.describe.json'), 'lead')
  const event = compile(describeFixture('Event.describe.json'), 'activity')
  const task = compile(TASK, 'activity')
  const caseMapping = compile(describeFixture('Case.describe.json'), 'case')

  it('imports a converted lead as converted, with its conversion date and links', () => {
    const r = ok(transformRecord(lead, {
      Id: '00Q5g0000000001EAA', CreatedDate: '2019-01-04T09:10:28.571+0000', LastName: 'Williams', Company: 'Soylent Group', Status: 'Working - Contacted',
      IsConverted: true, ConvertedDate: '2019-01-18', ConvertedAccountId: '0015g000000000EAAQ', ConvertedContactId: null, ConvertedOpportunityId: '0065g000000000HAAQ',
    }))
    expect(r.fields).toMatchObject({ status: 'converted', converted_at: '2019-01-18T00:00:00.000Z', company: 'Soylent Group' })
    expect(r.references).toEqual([
      { field: 'converted_account_id', object: 'Account', src_id: '0015g000000000EAAQ', source: 'ConvertedAccountId' },
      { field: 'converted_opportunity_id', object: 'Opportunity', src_id: '0065g000000000HAAQ', source: 'ConvertedOpportunityId' },
    ])
    expect(lead.sourceFields).toContain('IsConverted')
  })

  it('makes an all-day event cover whole days from its ActivityDate', () => {
    const r = ok(transformRecord(event, {
      Id: '00U5g0000000001EAA', CreatedDate: '2019-01-06T02:44:09.600+0000', Subject: 'Offsite', IsAllDayEvent: true, ActivityDate: '2019-03-04',
      StartDateTime: '2019-03-04T00:00:00.000+0000', EndDateTime: '2019-03-05T00:00:00.000+0000', DurationInMinutes: 2880,
    }))
    expect(r.fields).toMatchObject({ kind: 'event', subject: 'Offsite', due_date: '2019-03-04', start_at: '2019-03-04T00:00:00.000Z', end_at: '2019-03-06T00:00:00.000Z' })
    expect(r.custom_fields.IsAllDayEvent).toBe(true)
    expect(event.sourceFields).toEqual(expect.arrayContaining(['IsAllDayEvent', 'ActivityDate', 'DurationInMinutes']))
  })

  it('keeps a timed event\'s start and end', () => {
    const r = ok(transformRecord(event, {
      Id: '00U5g0000000001EAA', CreatedDate: '2019-01-06T02:44:09.600+0000', Subject: null, IsAllDayEvent: false,
      StartDateTime: '2019-01-25T02:44:09.600+0000', EndDateTime: '2019-01-25T04:14:09.600+0000',
    }))
    expect(r.fields).toMatchObject({ kind: 'event', subject: 'Event', start_at: '2019-01-25T02:44:09.600Z', end_at: '2019-01-25T04:14:09.600Z' })
  })

  it('routes polymorphic ids by their key prefix, and keeps ids of objects not imported', () => {
    const base = { Id: '00T5g0000000001EAA', CreatedDate: '2019-01-02T06:41:02.400+0000', Subject: 'x', Status: 'Completed', Priority: 'Low' }
    expect(ok(transformRecord(task, { ...base, WhoId: '00Q5g000000002hAAA', WhatId: '0065g000000004hAAA' })).references).toEqual([
      { field: 'lead_id', object: 'Lead', src_id: '00Q5g000000002hAAA', source: 'WhoId' },
      { field: 'opportunity_id', object: 'Opportunity', src_id: '0065g000000004hAAA', source: 'WhatId' },
    ])
    const campaign = ok(transformRecord(task, { ...base, WhoId: '0035g000000002hAAA', WhatId: '7015g0000000001AAA' }))
    expect(campaign.references).toEqual([{ field: 'contact_id', object: 'Contact', src_id: '0035g000000002hAAA', source: 'WhoId' }])
    expect(campaign.custom_fields.WhatId).toBe('7015g0000000001AAA')
  })

  it('takes key prefixes from the describes before the defaults', () => {
    const custom = compileMapping('Task', mapObjectFields(TASK, { inScope: IN_SCOPE, kind: 'activity' }), { recordTypes: new Map(), keyPrefixes: { a0Z: 'Case' } })
    const r = ok(transformRecord(custom, { Id: '00T5g0000000001EAA', CreatedDate: '2019-01-02T06:41:02.400+0000', Subject: 'x', WhatId: 'a0Z5g0000000001AAA' }))
    expect(r.references).toEqual([{ field: 'case_id', object: 'Case', src_id: 'a0Z5g0000000001AAA', source: 'WhatId' }])
  })

  it('gives queue-owned records no owner and keeps the queue id', () => {
    const r = ok(transformRecord(task, { Id: '00T5g0000000001EAA', CreatedDate: '2019-01-02T06:41:02.400+0000', Subject: 'x', OwnerId: '00G5g0000000001AAA' }))
    expect(r.owner).toBeNull()
    expect(r.custom_fields.OwnerId).toBe('00G5g0000000001AAA')
  })

  it('fills empty subjects: a task from its subtype, a case from its number', () => {
    const t = ok(transformRecord(task, { Id: '00T5g0000000001EAA', CreatedDate: '2019-01-02T06:41:02.400+0000', Subject: '', TaskSubtype: 'Call' }))
    expect(t.fields).toMatchObject({ subject: 'Call', kind: 'call' })
    const c = ok(transformRecord(caseMapping, { Id: '5005g0000000001AAA', CreatedDate: '2019-01-02T06:41:02.400+0000', Subject: null, CaseNumber: '00001234' }))
    expect(c.fields.subject).toBe('Case 00001234')
    expect(c.custom_fields.CaseNumber).toBe('00001234')
  })
})

describe('the compiled mapping', () => {
  it('selects Id, CreatedDate and every field it imports, never formulas, compound fields or ignored ones', () => {
    const compiled = compile(describeFixture('Account.PersonAccountsEnabled.describe.json'), 'account')
    expect(compiled.sourceFields.slice(0, 2)).toEqual(['Id', 'CreatedDate'])
    expect(compiled.sourceFields).toEqual(expect.arrayContaining(['Name', 'BillingStreet', 'Website', 'OwnerId', 'RecordTypeId', 'npsp__Funding_Focus__c']))
    for (const absent of ['npsp__Membership_Span__c', 'BillingAddress', 'SystemModstamp', 'IsDeleted', 'LastViewedDate']) expect(compiled.sourceFields).not.toContain(absent)
  })

  it('lists every column a record carries, including derived and rule-filled ones', () => {
    expect(compile(describeFixture('Account.describe.json'), 'account').columns).toEqual(expect.arrayContaining(['name', 'website', 'domain', 'billing_street']))
    const event = compile(describeFixture('Event.describe.json'), 'activity')
    expect(event.columns).toEqual(expect.arrayContaining(['kind', 'subject', 'start_at', 'end_at']))
    expect(event.fixed).toEqual({ kind: 'event' })
  })
})
