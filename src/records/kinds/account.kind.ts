import { addressFields, descriptionField, NAME, ownerField, PHONE, SHORT, URL_MAX, type RecordKind } from '../record-kind.ts'
import { INDUSTRIES, ACCOUNT_TYPES } from './standard-picklists.ts'

export const accountKind: RecordKind = {
  name: 'account',
  table: 'accounts',
  path: 'accounts',
  label: 'Account',
  labelPlural: 'Accounts',
  titleFields: ['name'],
  order: 'newest_first',
  fields: [
    { name: 'name', type: 'string', label: 'Name', required: true, maxLength: NAME, search: 'contains', sort: true },
    { name: 'domain', type: 'string', label: 'Domain', maxLength: NAME, search: 'prefix', filter: true },
    { name: 'website', type: 'url', label: 'Website', maxLength: URL_MAX },
    { name: 'industry', type: 'string', label: 'Industry', maxLength: SHORT, filter: true, picklist: INDUSTRIES },
    { name: 'type', type: 'string', label: 'Type', maxLength: SHORT, filter: true, picklist: ACCOUNT_TYPES },
    { name: 'phone', type: 'string', label: 'Phone', maxLength: PHONE },
    ...addressFields('billing', 'Billing'),
    { name: 'annual_revenue', type: 'decimal', label: 'Annual revenue', sort: true },
    { name: 'employee_count', type: 'integer', label: 'Employees', min: 0, max: 10_000_000 },
    descriptionField,
    { name: 'parent_account_id', type: 'ref', ref: 'account', label: 'Parent account', filter: true },
    ownerField,
  ],
}
