/** JSON Schemas of the saved views API (`/api/v1/views`, docs/views.md). */
import { recordKinds } from '../records/contracts.ts'

/** A list of a record kind (case comments are listed within their case), or the pipeline board. */
export const VIEW_KINDS = [...recordKinds.filter((k) => k.name !== 'case_comment').map((k) => k.name), 'pipeline'] as const
export const MAX_VIEW_NAME = 120
export const MAX_COLUMNS = 40
export const MAX_FILTERS = 40
/** A person's views of one kind, shared or not. */
export const MAX_VIEWS_PER_PERSON_AND_KIND = 100

const name = { type: 'string', minLength: 1, maxLength: MAX_VIEW_NAME, pattern: '\\S', description: 'What people see in the view switcher; 1-120 characters.' } as const
const shared = { type: 'boolean', description: 'Shared with everyone in the organization (default false: only its owner sees it).' } as const
const columns = {
  type: 'array',
  maxItems: MAX_COLUMNS,
  uniqueItems: true,
  items: { type: 'string', minLength: 1, maxLength: 80 },
  description: 'The columns in order after the title: built-in field names of the kind, and `custom_fields.<name>` for custom fields. Empty: the kind\'s default columns.',
} as const
const filters = {
  type: 'object',
  maxProperties: MAX_FILTERS,
  additionalProperties: { type: 'string', maxLength: 6000 },
  description: 'The list\'s filters as its query parameters, values as text: `{"stage[in]": "proposal,negotiation", "amount[gte]": "50000", "custom_fields.tier": "Gold"}`. Checked against the kind\'s list parameters (the pipeline: the opportunity list\'s).',
} as const
const sort = { type: ['string', 'null'], maxLength: 80, description: 'The list\'s `sort` (`name`, `-amount`), or null for the kind\'s default order. Always null on the pipeline.' } as const

export const viewSchema = {
  title: 'SavedView',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: [...VIEW_KINDS] },
    name: { type: 'string' },
    shared: { type: 'boolean' },
    owner_user_id: { type: 'string', format: 'uuid' },
    mine: { type: 'boolean', description: 'True when the caller owns the view (and may change it).' },
    columns: { type: 'array', items: { type: 'string' } },
    filters: { type: 'object', additionalProperties: { type: 'string' } },
    sort: { type: ['string', 'null'] },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'kind', 'name', 'shared', 'owner_user_id', 'mine', 'columns', 'filters', 'sort', 'created_at', 'updated_at'],
} as const

export const viewListSchema = {
  title: 'SavedViewList',
  type: 'object',
  properties: { data: { type: 'array', items: viewSchema } },
  required: ['data'],
} as const

export const viewCreateSchema = {
  title: 'SavedViewCreate',
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'name'],
  properties: { kind: { type: 'string', enum: [...VIEW_KINDS], description: 'The list the view is of: a kind\'s name (`account`), or `pipeline`.' }, name, shared, columns, filters, sort },
} as const

export const viewUpdateSchema = {
  title: 'SavedViewUpdate',
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'The fields to change; `kind` never changes.',
  properties: { name, shared, columns, filters, sort },
} as const

export const viewListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { kind: { type: 'string', enum: [...VIEW_KINDS], description: 'Only the views of this list.' } },
} as const
