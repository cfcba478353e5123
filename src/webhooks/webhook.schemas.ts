/**
 * Route schemas of the webhook API: the single source of its validation and its OpenAPI. Request
 * schemas are `as const`: the routes take their types from them.
 */
import { cursorSchema, limitSchema, pageSchemaOf, uuidSchema } from '../http/schemas.ts'
import { EVENT_NAMES } from '../events/index.ts'

type Schema = Record<string, unknown>

const ts = { type: 'string', format: 'date-time' }
const tsOrNull = { type: ['string', 'null'], format: 'date-time' }

/** The filter grammar (docs/webhooks.md, Filters); checked in full by filter/filter-grammar.ts on save. */
export const webhookFilterSchema = {
  title: 'WebhookFilter',
  type: 'object',
  additionalProperties: true,
  description:
    'A condition on the event\'s record, judged when a delivery is about to be sent: `{"field": f, "eq"|"ne"|"gt"|"gte"|"lt"|"lte": value}`, `{"field": f, "in": [values]}`, `{"changed": f}` (f is among the changed fields), combined with `{"all": [...]}`, `{"any": [...]}`, `{"not": {...}}`. At most 4 levels, 20 conditions, 4 KiB.',
  example: { all: [{ field: 'stage', in: ['closed_won', 'closed_lost'] }, { changed: 'stage' }] },
} as const
const filterProperty = { anyOf: [webhookFilterSchema, { type: 'null' }], description: 'Only events whose record passes this filter are sent; null: every event.' } as const
const orderingProperty = {
  type: 'string',
  enum: ['none', 'per_record'],
  description: 'per_record: the events of one record are delivered one after another in order, the next once the previous succeeded or was given up.',
} as const

const payloadProperty = {
  type: 'string',
  enum: ['full', 'thin'],
  description: 'thin: each delivery is `{id, seq, type, timestamp, object_id}` only (read the record from the API); full (default): the whole event.',
} as const

const count = { type: 'integer' }
export const replaySchema = {
  title: 'WebhookReplay',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: ['running', 'completed', 'canceled'], description: 'running: still queueing; completed: every event of the range is queued (its deliveries may still be on their way).' },
    status_reason: { type: ['string', 'null'], description: 'Why a replay was canceled.' },
    since_seq: { type: ['integer', 'null'] },
    since_time: tsOrNull,
    from_seq: { type: 'integer', description: 'The first seq of the range.' },
    through_seq: { type: 'integer', description: 'The newest seq when the replay was asked for: the end of the range.' },
    position: { type: 'integer', description: 'The last seq examined.' },
    total: { type: 'integer', description: 'Events in the range (every type).' },
    examined: { type: 'integer', description: 'Events of the range examined so far.' },
    queued: { type: 'integer', description: 'Deliveries queued: events the endpoint subscribes to and its filter accepts.' },
    deliveries: {
      type: 'object',
      description: 'The replay\'s deliveries by state.',
      properties: { pending: count, succeeded: count, failed: count, filtered: count },
      required: ['pending', 'succeeded', 'failed', 'filtered'],
    },
    created_at: ts,
    finished_at: tsOrNull,
  },
  required: ['id', 'status', 'status_reason', 'since_seq', 'since_time', 'from_seq', 'through_seq', 'position', 'total', 'examined', 'queued', 'deliveries', 'created_at', 'finished_at'],
} as const

export const replayBody = {
  title: 'WebhookReplayRequest',
  type: 'object',
  additionalProperties: false,
  required: ['since'],
  properties: {
    since: {
      type: ['integer', 'string'],
      maxLength: 64,
      description: 'Replay events from here: a seq of the change feed (that event included) or an RFC 3339 time (events that occurred at or after it).',
      example: '2026-11-20T09:00:00Z',
    },
  },
} as const

export const webhookSchema: Schema = {
  title: 'Webhook',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    description: { type: ['string', 'null'] },
    secret_set: { type: 'boolean', description: 'Whether deliveries are signed. The secret itself is never shown again after creation.' },
    status: { type: 'string', enum: ['active', 'disabled'] },
    disabled_reason: { type: ['string', 'null'] },
    disabled_at: tsOrNull,
    filter: filterProperty,
    ordering: orderingProperty,
    payload: payloadProperty,
    created_at: ts,
    updated_at: ts,
    delivery_stats: {
      type: 'object',
      properties: { pending: count, succeeded: count, failed: count, filtered: count, last_attempt_at: tsOrNull },
      required: ['pending', 'succeeded', 'failed', 'filtered', 'last_attempt_at'],
    },
    replay: { anyOf: [replaySchema, { type: 'null' }], description: 'The latest replay, running or finished; null when none was asked for.' },
  },
  required: ['id', 'url', 'events', 'secret_set', 'status', 'filter', 'ordering', 'payload', 'created_at', 'updated_at', 'delivery_stats', 'replay'],
}

export const createdWebhookSchema: Schema = {
  ...webhookSchema,
  title: 'WebhookWritten',
  properties: {
    ...(webhookSchema.properties as Schema),
    secret: { type: ['string', 'null'], description: 'The generated secret, in this response only (null unless generate_secret was sent).' },
  },
}

const eventsProperty = {
  type: 'array',
  minItems: 1,
  maxItems: EVENT_NAMES.length,
  items: { type: 'string', minLength: 1, maxLength: 100 },
  description: `Event names to receive: ${EVENT_NAMES.join(', ')}.`,
} as const
const secretProperty = {
  type: 'string',
  minLength: 1,
  maxLength: 256,
  description: 'Signing secret: a Standard Webhooks secret (whsec_ + base64 of 24-64 bytes) or any string of 16+ characters, whose UTF-8 bytes are the key.',
} as const
const common = {
  url: { type: 'string', minLength: 1, maxLength: 2048, description: 'Absolute https URL (http only where the operator allows it), no user name or fragment.' },
  events: eventsProperty,
  description: { type: ['string', 'null'], maxLength: 500 },
  generate_secret: { type: 'boolean', description: 'Let the service generate a secret; it is returned once, in this response.' },
  filter: filterProperty,
  ordering: orderingProperty,
  payload: payloadProperty,
} as const

export const createWebhookBody = {
  title: 'WebhookCreate',
  type: 'object',
  additionalProperties: false,
  required: ['url', 'events'],
  properties: { ...common, secret: secretProperty },
} as const

export const patchWebhookBody = {
  title: 'WebhookUpdate',
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...common,
    secret: { ...secretProperty, type: ['string', 'null'], description: `${secretProperty.description} null stops signing.` },
    status: { type: 'string', enum: ['active', 'disabled'], description: 'active re-enables a disabled endpoint; disabled pauses it.' },
  },
} as const

export const webhookPageSchema = pageSchemaOf(webhookSchema, 'WebhookPage')

export const deliveryQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: limitSchema, cursor: cursorSchema, status: { type: 'string', enum: ['pending', 'succeeded', 'failed', 'filtered'] } },
} as const

export const deliverySchema: Schema = {
  title: 'WebhookDelivery',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    event_id: { type: 'string', description: 'The webhook-id header: the same on every attempt.' },
    event_type: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'succeeded', 'failed', 'filtered'], description: 'filtered: the webhook\'s filter did not accept the event when it was due; nothing was sent.' },
    replay_id: { type: ['string', 'null'], format: 'uuid', description: 'The replay that queued this delivery; null for a live one.' },
    attempt_count: { type: 'integer' },
    next_attempt_at: tsOrNull,
    last_status_code: { type: ['integer', 'null'] },
    last_error: { type: ['string', 'null'] },
    created_at: ts,
    updated_at: ts,
    payload: { type: 'object', additionalProperties: true, description: 'The delivered body.' },
    attempts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          attempt: { type: 'integer' },
          started_at: ts,
          status_code: { type: ['integer', 'null'] },
          latency_ms: { type: 'integer' },
          error: { type: ['string', 'null'] },
          response_body: { type: ['string', 'null'], description: 'The first KiB of the response.' },
        },
        required: ['attempt', 'started_at', 'status_code', 'latency_ms', 'error', 'response_body'],
      },
    },
  },
  required: ['id', 'event_id', 'event_type', 'status', 'replay_id', 'attempt_count', 'next_attempt_at', 'last_status_code', 'last_error', 'created_at', 'updated_at', 'payload', 'attempts'],
}

export const deliveryPageSchema = pageSchemaOf(deliverySchema, 'WebhookDeliveryPage')

export const webhookParams = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: uuidSchema } } as const
export const deliveryParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'delivery_id'],
  properties: { id: uuidSchema, delivery_id: uuidSchema },
} as const
