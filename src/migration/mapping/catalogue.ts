/**
 * The supported source objects (service-spec.md, "Migration mapping"): each one's target kind, its
 * support level, and the table of its standard fields, i.e. where each goes and why. Fields not
 * listed here are mapped by type (auto-map.ts): custom fields and unlisted standard fields are
 * kept in custom_fields, system fields are ignored (system-fields.ts).
 */
import type { KindName } from '../../records/contracts.ts'
import type { SupportLevel, SupportedObject } from '../migration.types.ts'

export type CatalogueEntry =
  /** Value into a target field; the transform follows from the two types (field-types.ts). */
  | { action: 'field'; target: string; derived?: Array<{ target: string; rule: 'domain' }>; note?: string }
  /** Lookup: referenced source object -> target field. `required`: a record without it cannot be imported. */
  | { action: 'reference'; targets: Readonly<Record<string, string>>; required?: boolean; note?: string }
  | { action: 'owner'; target: string; note?: string }
  | { action: 'custom_field'; record_type?: boolean; note: string }
  /** Not imported as a field; `reads`: the transform still reads it for a record rule (record-rules.ts). */
  | { action: 'ignore'; note: string; reads?: boolean }

export interface ObjectCatalogue {
  object: SupportedObject
  target: KindName
  support: SupportLevel
  fields: Readonly<Record<string, CatalogueEntry>>
}

const field = (target: string, note?: string): CatalogueEntry => ({ action: 'field', target, note })
const ref = (targets: Record<string, string>, note?: string): CatalogueEntry => ({ action: 'reference', targets, note })
const custom = (note: string): CatalogueEntry => ({ action: 'custom_field', note })
const ignore = (note: string): CatalogueEntry => ({ action: 'ignore', note })
const readOnly = (note: string): CatalogueEntry => ({ action: 'ignore', note, reads: true })

const OWNER: CatalogueEntry = { action: 'owner', target: 'owner_id', note: 'matched to a member by email' }
const RECORD_TYPE: CatalogueEntry = {
  action: 'custom_field',
  record_type: true,
  note: 'record type ids differ in every org: its developer name is kept in custom_fields',
}

const nameParts = (what: string): Record<string, CatalogueEntry> => ({
  FirstName: field('first_name'),
  LastName: field('last_name'),
  Salutation: custom(`${what} have no salutation field: kept in custom_fields`),
  MiddleName: custom(`${what} have no middle name field: kept in custom_fields`),
  Suffix: custom(`${what} have no suffix field: kept in custom_fields`),
  Name: ignore('full name: computed by the source from the name parts, which are imported'),
})

const GEOCODE = 'geocode of the address: kept in custom_fields'
function addressParts(sourcePrefix: string, targetPrefix: string): Record<string, CatalogueEntry> {
  return {
    [`${sourcePrefix}Street`]: field(`${targetPrefix}_street`),
    [`${sourcePrefix}City`]: field(`${targetPrefix}_city`),
    [`${sourcePrefix}State`]: field(`${targetPrefix}_state`),
    [`${sourcePrefix}PostalCode`]: field(`${targetPrefix}_postal_code`),
    [`${sourcePrefix}Country`]: field(`${targetPrefix}_country`),
    [`${sourcePrefix}Latitude`]: custom(GEOCODE),
    [`${sourcePrefix}Longitude`]: custom(GEOCODE),
    [`${sourcePrefix}GeocodeAccuracy`]: custom(GEOCODE),
  }
}

const ACTIVITY_WHO = ref({ Contact: 'contact_id', Lead: 'lead_id' })
const ACTIVITY_WHAT = ref({ Account: 'account_id', Opportunity: 'opportunity_id', Case: 'case_id' })
const ACTIVITY_ACCOUNT = ref(
  { Account: 'account_id' },
  'the account the source derives from WhoId/WhatId: fills account_id when WhatId does not name an account',
)
const SUBJECT_FALLBACK = (what: 'Task' | 'Event') =>
  field('subject', what === 'Task' ? 'an empty subject becomes the task subtype ("Call", "Email") or "Task"' : 'an empty subject becomes "Event"')

const ACCOUNT: ObjectCatalogue = {
  object: 'Account',
  target: 'account',
  support: 'automatic',
  fields: {
    Name: field('name'),
    Website: { action: 'field', target: 'website', derived: [{ target: 'domain', rule: 'domain' }], note: 'also fills domain (host of the website, lower case, no www.)' },
    Industry: field('industry'),
    Type: field('type'),
    Phone: field('phone'),
    Fax: custom('accounts have no fax field: kept in custom_fields'),
    ...addressParts('Billing', 'billing'),
    AnnualRevenue: field('annual_revenue'),
    NumberOfEmployees: field('employee_count'),
    Description: field('description'),
    ParentId: ref({ Account: 'parent_account_id' }),
    OwnerId: OWNER,
    RecordTypeId: RECORD_TYPE,
    IsPersonAccount: custom('person account flag: kept in custom_fields (a person account imports as an account only)'),
  },
}

const CONTACT: ObjectCatalogue = {
  object: 'Contact',
  target: 'contact',
  support: 'automatic',
  fields: {
    ...nameParts('contacts'),
    AccountId: ref({ Account: 'account_id' }),
    Email: field('email'),
    Phone: field('phone'),
    MobilePhone: field('mobile_phone'),
    Title: field('title'),
    Department: field('department'),
    ...addressParts('Mailing', 'mailing'),
    LeadSource: field('lead_source'),
    Description: field('description'),
    OwnerId: OWNER,
    RecordTypeId: RECORD_TYPE,
  },
}

const LEAD_ADDRESS = 'leads have no address fields in the service: kept in custom_fields'
const LEAD: ObjectCatalogue = {
  object: 'Lead',
  target: 'lead',
  support: 'planned',
  fields: {
    ...nameParts('leads'),
    Company: field('company'),
    Email: field('email'),
    Phone: field('phone'),
    Title: field('title'),
    Status: field('status', 'a converted lead (IsConverted) becomes converted whatever its status'),
    LeadSource: field('source'),
    Rating: field('rating'),
    Industry: field('industry'),
    Description: field('description'),
    IsConverted: readOnly('read to set the status of converted leads to converted'),
    ConvertedDate: field('converted_at'),
    ConvertedAccountId: ref({ Account: 'converted_account_id' }),
    ConvertedContactId: ref({ Contact: 'converted_contact_id' }),
    ConvertedOpportunityId: ref({ Opportunity: 'converted_opportunity_id' }),
    Street: custom(LEAD_ADDRESS),
    City: custom(LEAD_ADDRESS),
    State: custom(LEAD_ADDRESS),
    PostalCode: custom(LEAD_ADDRESS),
    Country: custom(LEAD_ADDRESS),
    Latitude: custom(GEOCODE),
    Longitude: custom(GEOCODE),
    GeocodeAccuracy: custom(GEOCODE),
    OwnerId: OWNER,
    RecordTypeId: RECORD_TYPE,
  },
}

const OPPORTUNITY: ObjectCatalogue = {
  object: 'Opportunity',
  target: 'opportunity',
  support: 'planned',
  fields: {
    Name: field('name'),
    AccountId: ref({ Account: 'account_id' }),
    StageName: field('stage'),
    Amount: field('amount'),
    Probability: field('probability'),
    CloseDate: field('close_date'),
    Type: field('type'),
    LeadSource: field('lead_source'),
    NextStep: field('next_step'),
    CurrencyIsoCode: field('currency'),
    Description: field('description'),
    OwnerId: OWNER,
    RecordTypeId: RECORD_TYPE,
  },
}

const PRODUCT: ObjectCatalogue = {
  object: 'Product2',
  target: 'product',
  support: 'planned',
  fields: {
    Name: field('name'),
    ProductCode: field('code'),
    Family: field('family'),
    IsActive: field('is_active'),
    Description: field('description'),
    CurrencyIsoCode: field('currency'),
    RecordTypeId: RECORD_TYPE,
  },
}

const CASE: ObjectCatalogue = {
  object: 'Case',
  target: 'case',
  support: 'automatic',
  fields: {
    Subject: field('subject', 'an empty subject becomes "Case <CaseNumber>"'),
    Description: field('description'),
    Status: field('status'),
    Priority: field('priority'),
    Origin: field('origin'),
    Type: field('type'),
    AccountId: ref({ Account: 'account_id' }),
    ContactId: ref({ Contact: 'contact_id' }),
    IsEscalated: field('is_escalated'),
    ClosedDate: field('closed_at'),
    CaseNumber: custom('the service numbers cases itself: the source case number is kept in custom_fields'),
    ParentId: custom('cases have no parent case in the service: the parent\'s source id is kept in custom_fields'),
    OwnerId: OWNER,
    RecordTypeId: RECORD_TYPE,
  },
}

const CASE_COMMENT: ObjectCatalogue = {
  object: 'CaseComment',
  target: 'case_comment',
  support: 'automatic',
  fields: {
    ParentId: { action: 'reference', targets: { Case: 'case_id' }, required: true, note: 'a comment without its case is not imported' },
    CommentBody: field('body'),
    IsPublished: field('is_public'),
    CreatedById: { action: 'owner', target: 'author_user_id', note: 'the author, matched to a member by email; the author\'s name is kept too' },
  },
}

const TASK: ObjectCatalogue = {
  object: 'Task',
  target: 'activity',
  support: 'automatic',
  fields: {
    Subject: SUBJECT_FALLBACK('Task'),
    Description: field('description'),
    Status: field('status'),
    Priority: field('priority'),
    ActivityDate: field('due_date'),
    TaskSubtype: field('kind', 'calls and emails logged as tasks become call and email activities; anything else is a task'),
    WhoId: ACTIVITY_WHO,
    WhatId: ACTIVITY_WHAT,
    AccountId: ACTIVITY_ACCOUNT,
    OwnerId: OWNER,
    RecordTypeId: RECORD_TYPE,
  },
}

const EVENT: ObjectCatalogue = {
  object: 'Event',
  target: 'activity',
  support: 'automatic',
  fields: {
    Subject: SUBJECT_FALLBACK('Event'),
    Description: field('description'),
    Location: field('location'),
    StartDateTime: field('start_at', 'all-day events start at midnight UTC of ActivityDate'),
    EndDateTime: field('end_at', 'all-day events end at midnight UTC after their last day'),
    ActivityDate: field('due_date'),
    ActivityDateTime: ignore('the same instant as StartDateTime, which is imported'),
    DurationInMinutes: readOnly('follows from StartDateTime and EndDateTime, which are imported (read for all-day events)'),
    IsAllDayEvent: custom('activities have no all-day flag in the service: kept in custom_fields (the start and end are set to whole days)'),
    WhoId: ACTIVITY_WHO,
    WhatId: ACTIVITY_WHAT,
    AccountId: ACTIVITY_ACCOUNT,
    OwnerId: OWNER,
    RecordTypeId: RECORD_TYPE,
  },
}

export const CATALOGUE: Readonly<Record<SupportedObject, ObjectCatalogue>> = {
  Account: ACCOUNT,
  Contact: CONTACT,
  Lead: LEAD,
  Product2: PRODUCT,
  Opportunity: OPPORTUNITY,
  Case: CASE,
  CaseComment: CASE_COMMENT,
  Task: TASK,
  Event: EVENT,
}

export function catalogueFor(object: string): ObjectCatalogue | null {
  return Object.hasOwn(CATALOGUE, object) ? CATALOGUE[object as SupportedObject] : null
}
