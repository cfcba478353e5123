/** The JSON schemas of journal events as the API shows them (named components in OpenAPI). */
import { pageSchemaOf } from '../http/schemas.ts'
import { recordChanges, recordSchemas } from '../records/index.ts'

/** Who made a change (docs/webhooks.md, Event bodies). */
export const eventActorSchema = {
  title: 'EventActor',
  type: 'object',
  properties: {
    user_id: { type: ['string', 'null'], format: 'uuid', description: 'The person who made the change (null for the service itself).' },
    client_id: { type: ['string', 'null'], description: 'The API client whose token was used (null in the app, and for imports and migrations started there).' },
    channel: { type: 'string', enum: [...recordChanges.CHANNELS], description: 'The door the change came in by: `app`, `api`, `mcp`, `import`, `migration` or `system`.' },
  },
  required: ['user_id', 'client_id', 'channel'],
} as const

/** The author of an event: who, and as part of which operation. Absent only on events written before they were kept. */
export const eventAuthorProperties = {
  actor: eventActorSchema,
  operation_id: { type: 'string', format: 'uuid', description: 'Shared by every change of one request, batch, CSV import run or migration run.' },
} as const

/** The webhook body (docs/webhooks.md): the record after the change, and what it was before. */
export const eventSchema = {
  title: 'Event',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    type: { type: 'string', description: 'Event type, e.g. `opportunity.stage_changed`.' },
    timestamp: { type: 'string', format: 'date-time' },
    organization_id: { type: 'string', format: 'uuid' },
    ...eventAuthorProperties,
    data: {
      type: 'object',
      properties: {
        object: { type: 'object', additionalProperties: true, description: 'The record after the change (as deleted, for `.deleted`).' },
        previous: { type: 'object', additionalProperties: true, description: 'The old values of the fields that changed (updates, conversions, escalations).' },
        // lead.converted only: what the lead was converted into, and whether each record was created or existed.
        conversion: recordSchemas.leadConversionSchema,
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
