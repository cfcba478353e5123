import { descriptionField, NAME, ownerField, PHONE, type RecordKind } from '../record-kind.ts'
import { CASE_ORIGINS, CASE_TYPES } from './standard-picklists.ts'

export const CASE_STATUSES = ['new', 'working', 'escalated', 'on_hold', 'closed'] as const
export const CASE_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const

export const caseKind: RecordKind = {
  name: 'case',
  table: 'cases',
  path: 'cases',
  label: 'Case',
  labelPlural: 'Cases',
  titleFields: ['subject'],
  order: 'newest_first',
  fields: [
    // Per-organization sequence, assigned on create (see case.repository.ts).
    { name: 'case_number', type: 'integer', label: 'Case number', readOnly: true, filter: true, sort: true },
    { name: 'subject', type: 'string', label: 'Subject', required: true, maxLength: NAME, search: 'contains', sort: true },
    descriptionField,
    { name: 'status', type: 'enum', label: 'Status', values: CASE_STATUSES, default: 'new', filter: true, sort: true },
    { name: 'priority', type: 'enum', label: 'Priority', values: CASE_PRIORITIES, default: 'medium', filter: true, sort: true },
    { name: 'origin', type: 'string', label: 'Origin', maxLength: PHONE, filter: true, picklist: CASE_ORIGINS },
    { name: 'type', type: 'string', label: 'Type', maxLength: PHONE, filter: true, picklist: CASE_TYPES },
    { name: 'account_id', type: 'ref', ref: 'account', label: 'Account', filter: true },
    { name: 'contact_id', type: 'ref', ref: 'contact', label: 'Contact', filter: true },
    { name: 'is_escalated', type: 'boolean', label: 'Escalated', readOnly: true, filter: true },
    { name: 'escalated_at', type: 'datetime', label: 'Escalated at', readOnly: true },
    { name: 'closed_at', type: 'datetime', label: 'Closed at', readOnly: true },
    ownerField,
  ],
}
