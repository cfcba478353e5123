/**
 * The query parameters of custom field filters (`custom_fields.<name>[op]=value`): their schema and
 * how they are read from a query. Apart from the resolution against an organization's definitions
 * (custom-filters.ts), so list schemas can be shared with the web app without the database.
 */
import type { CustomFieldType } from './definition.ts'

export type CustomFilterOp = 'eq' | 'gte' | 'gt' | 'lte' | 'lt' | 'in'

export interface CustomFilter {
  name: string
  op: CustomFilterOp
  /** As sent, until resolved; then the typed value (an array for `in`). */
  value: unknown
  /** Set once checked against the organization's definitions. */
  type?: CustomFieldType
}

const KEY = /^custom_fields\.([a-z][a-z0-9_]{0,62})(?:\[(gte|gt|lte|lt|in)\])?$/

/** The query string's schema for these parameters (part of every list and count query schema). */
export const customFilterParamSchemas = {
  [KEY.source]: {
    type: 'string',
    maxLength: 2000,
    description:
      'A custom field filter: `custom_fields.<name>=value`, `custom_fields.<name>[gte|gt|lte|lt]=value` (number and date fields), `custom_fields.<name>[in]=a,b` (picklists). The names are the organization\'s custom fields of this kind.',
  },
}

export function parseCustomFilterParams(query: Record<string, unknown>): CustomFilter[] {
  const out: CustomFilter[] = []
  for (const [key, value] of Object.entries(query)) {
    const m = KEY.exec(key)
    if (m && typeof value === 'string') out.push({ name: m[1], op: (m[2] as CustomFilterOp | undefined) ?? 'eq', value })
  }
  return out
}
