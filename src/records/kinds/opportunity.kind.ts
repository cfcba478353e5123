import { descriptionField, NAME, ownerField, SHORT, type RecordKind } from '../record-kind.ts'
import { OPPORTUNITY_TYPES, LEAD_SOURCES } from './standard-picklists.ts'

export const OPPORTUNITY_STAGES = [
  'prospecting',
  'qualification',
  'needs_analysis',
  'proposal',
  'negotiation',
  'closed_won',
  'closed_lost',
] as const

export const opportunityKind: RecordKind = {
  name: 'opportunity',
  table: 'opportunities',
  path: 'opportunities',
  label: 'Opportunity',
  labelPlural: 'Opportunities',
  titleFields: ['name'],
  order: 'newest_first',
  fields: [
    { name: 'name', type: 'string', label: 'Name', required: true, maxLength: NAME, search: 'contains', sort: true },
    { name: 'account_id', type: 'ref', ref: 'account', label: 'Account', filter: true },
    { name: 'stage', type: 'enum', label: 'Stage', values: OPPORTUNITY_STAGES, default: 'prospecting', filter: true, sort: true },
    { name: 'amount', type: 'decimal', label: 'Amount', erp: true, sort: true },
    { name: 'currency', type: 'string', label: 'Currency', maxLength: 3, default: 'USD' },
    { name: 'probability', type: 'integer', label: 'Probability (%)', min: 0, max: 100 },
    { name: 'close_date', type: 'date', label: 'Close date', sort: true },
    { name: 'type', type: 'string', label: 'Type', maxLength: SHORT, filter: true, picklist: OPPORTUNITY_TYPES },
    { name: 'lead_source', type: 'string', label: 'Lead source', maxLength: SHORT, filter: true, picklist: LEAD_SOURCES },
    { name: 'next_step', type: 'string', label: 'Next step', maxLength: NAME },
    descriptionField,
    ownerField,
  ],
}
