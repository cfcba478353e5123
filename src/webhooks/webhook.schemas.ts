/**
 * Route schemas of the webhook API: the single source of its validation and its OpenAPI. Request
 * schemas are `as const`: the routes take their types from them.
 */
import { cursorSchema, limitSchema, pageSchemaOf, uuidSchema } from '../http/schemas.ts'
import { EVENT_NAMES } from './webhook-events.ts'

type Schema = Record<string, unknown>

const ts = { type: 'string', format: 'date-time' }
const tsOrNull = { type: ['string', 'null'], format: 'date-time' }

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
    created_at: ts,
    updated_at: ts,
    delivery_stats: {
      type: 'object',
      properties: { pending: { type: 'integer' }, succeeded: { type: 'integer' }, failed: { type: 'integer' }, last_attempt_at: tsOrNull },
      required: ['pending', 'succeeded', 'failed', 'last_attempt_at'],
    },
  },
  required: ['id', 'url', 'events', 'secret_set', 'status', 'created_at', 'updated_at', 'delivery_stats'],
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
  properties: { limit: limitSchema, cursor: cursorSchema, status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] } },
} as const

export const deliverySchema: Schema = {
  title: 'WebhookDelivery',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    event_id: { type: 'string', description: 'The webhook-id header: the same on every attempt.' },
    event_type: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
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
  required: ['id', 'event_id', 'event_type', 'status', 'attempt_count', 'next_attempt_at', 'last_status_code', 'last_error', 'created_at', 'updated_at', 'payload', 'attempts'],
}

export const deliveryPageSchema = pageSchemaOf(deliverySchema, 'WebhookDeliveryPage')

export const webhookParams = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: uuidSchema } } as const
export const deliveryParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'delivery_id'],
  properties: { id: uuidSchema, delivery_id: uuidSchema },
} as const
