import { descriptionField, EMAIL_MAX, NAME, ownerField, PHONE, SHORT, type RecordKind } from '../record-kind.ts'
import { INDUSTRIES, LEAD_SOURCES, LEAD_RATINGS } from './standard-picklists.ts'

export const LEAD_STATUSES = ['new', 'working', 'nurturing', 'qualified', 'unqualified', 'converted'] as const

export const leadKind: RecordKind = {
  name: 'lead',
  table: 'leads',
  path: 'leads',
  label: 'Lead',
  labelPlural: 'Leads',
  titleFields: ['first_name', 'last_name'],
  order: 'newest_first',
  fields: [
    { name: 'first_name', type: 'string', label: 'First name', maxLength: SHORT, search: 'contains' },
    { name: 'last_name', type: 'string', label: 'Last name', required: true, maxLength: SHORT, search: 'contains', sort: true },
    { name: 'company', type: 'string', label: 'Company', required: true, maxLength: NAME, search: 'contains', sort: true },
    { name: 'email', type: 'email', label: 'Email', maxLength: EMAIL_MAX, search: 'email', filter: true },
    { name: 'phone', type: 'string', label: 'Phone', maxLength: PHONE },
    { name: 'title', type: 'string', label: 'Title', maxLength: NAME },
    // `converted` is reached only through POST /leads/{id}/convert (lead.service.ts checks it).
    { name: 'status', type: 'enum', label: 'Status', values: LEAD_STATUSES, default: 'new', filter: true, sort: true },
    { name: 'source', type: 'string', label: 'Source', maxLength: SHORT, filter: true, picklist: LEAD_SOURCES },
    { name: 'rating', type: 'string', label: 'Rating', maxLength: PHONE, filter: true, picklist: LEAD_RATINGS },
    { name: 'industry', type: 'string', label: 'Industry', maxLength: SHORT, filter: true, picklist: INDUSTRIES },
    descriptionField,
    { name: 'converted_at', type: 'datetime', label: 'Converted at', readOnly: true },
    { name: 'converted_account_id', type: 'ref', ref: 'account', label: 'Converted account', readOnly: true },
    { name: 'converted_contact_id', type: 'ref', ref: 'contact', label: 'Converted contact', readOnly: true },
    { name: 'converted_opportunity_id', type: 'ref', ref: 'opportunity', label: 'Converted opportunity', readOnly: true },
    ownerField,
  ],
}
