/** The JSON schemas of journal events as the API shows them (named components in OpenAPI). */
import { pageSchemaOf } from '../http/schemas.ts'

/** The webhook body (docs/webhooks.md): the record after the change, and what it was before. */
export const eventSchema = {
  title: 'Event',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    type: { type: 'string', description: 'Event type, e.g. `opportunity.stage_changed`.' },
    timestamp: { type: 'string', format: 'date-time' },
    organization_id: { type: 'string', format: 'uuid' },
    data: {
      type: 'object',
      properties: {
        object: { type: 'object', additionalProperties: true, description: 'The record after the change (as deleted, for `.deleted`).' },
        previous: { type: 'object', additionalProperties: true, description: 'The old values of the fields that changed (updates, conversions, escalations).' },
      },
      required: ['object'],
    },
  },
  required: ['id', 'type', 'timestamp', 'organization_id', 'data'],
} as const

export const eventPageSchema = pageSchemaOf(eventSchema, 'EventPage')


/** An event of the change feed: the webhook body plus its position in the organization's journal. */
export const feedEventSchema = {
  ...eventSchema,
  title: 'FeedEvent',
  properties: { ...eventSchema.properties, seq: { type: 'integer', description: 'The position in the organization\'s journal: 1, 2, 3, ...' } },
  required: [...eventSchema.required, 'seq'],
} as const
