import { addressFields, descriptionField, EMAIL_MAX, NAME, ownerField, PHONE, SHORT, type RecordKind } from '../record-kind.ts'
import { LEAD_SOURCES } from './standard-picklists.ts'

export const contactKind: RecordKind = {
  name: 'contact',
  table: 'contacts',
  path: 'contacts',
  label: 'Contact',
  labelPlural: 'Contacts',
  titleFields: ['first_name', 'last_name'],
  order: 'newest_first',
  fields: [
    { name: 'first_name', type: 'string', label: 'First name', maxLength: SHORT, search: 'contains' },
    { name: 'last_name', type: 'string', label: 'Last name', required: true, maxLength: SHORT, search: 'contains', sort: true },
    { name: 'email', type: 'email', label: 'Email', maxLength: EMAIL_MAX, search: 'email', filter: true },
    { name: 'phone', type: 'string', label: 'Phone', maxLength: PHONE },
    { name: 'mobile_phone', type: 'string', label: 'Mobile phone', maxLength: PHONE },
    { name: 'title', type: 'string', label: 'Title', maxLength: NAME },
    { name: 'department', type: 'string', label: 'Department', maxLength: SHORT },
    { name: 'account_id', type: 'ref', ref: 'account', label: 'Account', filter: true },
    ...addressFields('mailing', 'Mailing'),
    { name: 'lead_source', type: 'string', label: 'Lead source', maxLength: SHORT, filter: true, picklist: LEAD_SOURCES },
    descriptionField,
    ownerField,
  ],
}
