/**
 * JSON Schemas of the HTTP API that belong to no capability: a UUID, a problem answer (RFC 9457),
 * keyset paging (limit, cursor, the page), an `{id}` path. Written `as const` so routes get their
 * request types from them (type-provider.ts); ajv validates with them and the OpenAPI document
 * shows them, as with every route schema.
 */

export const UUID_TEXT = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}'
/** Strict UUID text: Ajv's `uuid` format alone also admits a `urn:uuid:` prefix. */
export const UUID_PATTERN = `^${UUID_TEXT}$`
export const uuidSchema = { type: 'string', format: 'uuid', pattern: UUID_PATTERN } as const

/** RFC 9457 problem details, the answer of every 4xx and 5xx under /api/v1. */
export const problemSchema = {
  title: 'Problem',
  type: 'object',
  description: 'RFC 9457 problem details',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' }, index: { type: 'integer', description: 'A batch: the position of the failing item in `records`.' } },
      },
    },
    oldest_seq: { type: 'integer', description: '410 `events_expired`: the oldest `seq` the event journal still holds.' },
  },
  required: ['type', 'title', 'status', 'detail', 'code'],
} as const

/** No default is filled in (validation.ts: useDefaults false): handlers read a missing limit as 50. */
export const limitSchema = { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Records per page, 1-200.' } as const
export const cursorSchema = {
  ...uuidSchema,
  description: 'The next_cursor of the previous page (the id of its last record).',
} as const

/** The query of a keyset-paged list with no filters. */
export const pageQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: limitSchema, cursor: cursorSchema },
} as const

/** A keyset page of `items` (keyset-page.ts builds it), named `title` in the OpenAPI document. */
export function pageSchemaOf(items: Record<string, unknown>, title: string): Record<string, unknown> {
  return {
    title,
    type: 'object',
    properties: { data: { type: 'array', items }, next_cursor: { type: ['string', 'null'] }, has_more: { type: 'boolean' } },
    required: ['data', 'next_cursor', 'has_more'],
  }
}

/** The path of one thing: `/{id}` with a UUID. */
export const idParamsSchema = {
  type: 'object',
  properties: { id: uuidSchema },
  required: ['id'],
  additionalProperties: false,
} as const
