/** JSON Schemas of the custom field definition API (`/api/v1/custom-fields`). */
import { recordKinds } from '../kinds/index.ts'
import { CUSTOM_FIELD_NAME_PATTERN, CUSTOM_FIELD_TYPES, MAX_LABEL, MAX_OPTION, MAX_OPTIONS } from './definition.ts'

const kindNames = recordKinds.map((k) => k.name)

const label = { type: 'string', minLength: 1, maxLength: MAX_LABEL, description: 'What people see: the form label and the list column.' } as const
const type = { type: 'string', enum: [...CUSTOM_FIELD_TYPES], description: 'text (up to 2,000 characters), number (a JSON number), date (YYYY-MM-DD), boolean, picklist (one of `options`).' } as const
const options = {
  type: 'array',
  maxItems: MAX_OPTIONS,
  items: { type: 'string', minLength: 1, maxLength: MAX_OPTION },
  description: 'Picklists only: the allowed values, in display order (1-200, distinct).',
} as const
const required = { type: 'boolean', description: 'Must be set (not null) when a record is created, and can never be cleared. Existing records are not checked.' } as const

export const customFieldSchema = {
  title: 'CustomField',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: kindNames },
    name: { type: 'string', description: 'The key in the records\' `custom_fields`.' },
    label: { type: 'string' },
    type: { type: 'string', enum: [...CUSTOM_FIELD_TYPES] },
    options: { type: 'array', items: { type: 'string' } },
    required: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'kind', 'name', 'label', 'type', 'options', 'required', 'created_at', 'updated_at'],
} as const

export const customFieldListSchema = {
  title: 'CustomFieldList',
  type: 'object',
  properties: { data: { type: 'array', items: customFieldSchema } },
  required: ['data'],
} as const

export const customFieldCreateSchema = {
  title: 'CustomFieldCreate',
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'name', 'label', 'type'],
  properties: {
    kind: { type: 'string', enum: kindNames, description: 'The record kind the field belongs to.' },
    name: {
      type: 'string',
      pattern: CUSTOM_FIELD_NAME_PATTERN,
      description: 'API name: snake_case (a-z, 0-9, _; starting with a letter; at most 63), unique per kind, not a built-in field\'s name. Cannot be changed later.',
    },
    label,
    type,
    options,
    required,
  },
} as const

export const customFieldUpdateSchema = {
  title: 'CustomFieldUpdate',
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'name and kind never change. type changes only while no record holds a value of the field.',
  properties: { label, type, options, required },
} as const

export const customFieldListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { kind: { type: 'string', enum: kindNames, description: 'Only the fields of this kind.' } },
} as const
