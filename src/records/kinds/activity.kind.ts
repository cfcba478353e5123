import { descriptionField, NAME, ownerField, type RecordKind } from '../record-kind.ts'

export const ACTIVITY_KINDS = ['task', 'event', 'call', 'email', 'note'] as const
export const ACTIVITY_STATUSES = ['open', 'in_progress', 'completed', 'cancelled'] as const
export const ACTIVITY_PRIORITIES = ['low', 'normal', 'high'] as const

export const activityKind: RecordKind = {
  name: 'activity',
  table: 'activities',
  path: 'activities',
  label: 'Activity',
  labelPlural: 'Activities',
  titleFields: ['subject'],
  order: 'newest_first',
  fields: [
    { name: 'kind', type: 'enum', label: 'Kind', values: ACTIVITY_KINDS, required: true, filter: true },
    { name: 'subject', type: 'string', label: 'Subject', required: true, maxLength: NAME, search: 'contains', sort: true },
    descriptionField,
    { name: 'status', type: 'enum', label: 'Status', values: ACTIVITY_STATUSES, default: 'open', filter: true, sort: true },
    { name: 'priority', type: 'enum', label: 'Priority', values: ACTIVITY_PRIORITIES, default: 'normal', filter: true, sort: true },
    { name: 'due_date', type: 'date', label: 'Due date', sort: true },
    { name: 'start_at', type: 'datetime', label: 'Starts at', sort: true },
    { name: 'end_at', type: 'datetime', label: 'Ends at' },
    { name: 'location', type: 'string', label: 'Location', maxLength: NAME },
    { name: 'contact_id', type: 'ref', ref: 'contact', label: 'Contact', filter: true },
    { name: 'account_id', type: 'ref', ref: 'account', label: 'Account', filter: true },
    { name: 'case_id', type: 'ref', ref: 'case', label: 'Case', filter: true },
    { name: 'opportunity_id', type: 'ref', ref: 'opportunity', label: 'Opportunity', filter: true },
    { name: 'lead_id', type: 'ref', ref: 'lead', label: 'Lead', filter: true },
    ownerField,
  ],
}
