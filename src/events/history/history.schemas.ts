/** JSON schemas of history entries, operations and reverts (named components in OpenAPI). */
import { pageSchemaOf, uuidSchema } from '../../http/schemas.ts'
import { recordChanges } from '../../records/index.ts'

const nullableUuid = { type: ['string', 'null'], format: 'uuid' } as const

export const historyActorSchema = {
  title: 'HistoryActor',
  type: 'object',
  properties: {
    channel: { type: 'string', enum: [...recordChanges.CHANNELS], description: 'The door the change came in by.' },
    user: {
      type: ['object', 'null'],
      properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, email: { type: 'string' } },
      required: ['id', 'name', 'email'],
      description: 'The person who made the change (null for the service itself).',
    },
    client: {
      type: ['object', 'null'],
      properties: { id: { type: 'string' }, name: { type: 'string' } },
      required: ['id', 'name'],
      description: 'The API client whose token was used (null in the app).',
    },
  },
  required: ['channel', 'user', 'client'],
} as const

export const historyEntrySchema = {
  title: 'HistoryEntry',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    at: { type: 'string', format: 'date-time' },
    action: { type: 'string', enum: ['created', 'updated', 'deleted', 'restored', 'converted', 'escalated'] },
    operation_id: { type: 'string', format: 'uuid' },
    actor: historyActorSchema,
    changes: {
      type: 'array',
      description: "Each changed field's old and new value; a create's values (none for a bulk create), a delete's last values. Fields the caller may not read are left out.",
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, label: { type: 'string' }, old: {}, new: {} },
        required: ['field', 'label', 'old', 'new'],
      },
    },
  },
  required: ['id', 'at', 'action', 'operation_id', 'actor', 'changes'],
} as const

export const historyPageSchema = pageSchemaOf(historyEntrySchema, 'HistoryPage')

export const revertStatusSchema = {
  title: 'RevertStatus',
  type: 'object',
  properties: {
    operation_id: { type: 'string', format: 'uuid', description: "The revert's own operation id (a revert can itself be reverted)." },
    reverts: { type: 'string', format: 'uuid' },
    state: { type: 'string', enum: ['running', 'succeeded', 'failed'] },
    progress: { type: 'object', properties: { done: { type: 'integer' }, total: { type: 'integer' } }, required: ['done', 'total'] },
    conflicts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          kind: { type: 'string' },
          record_id: { type: 'string', format: 'uuid' },
          field: { type: 'string' },
          reason: { type: 'string', enum: ['changed_since', 'deleted_since', 'id_in_use', 'reference_gone'] },
        },
        required: ['kind', 'record_id', 'reason'],
      },
    },
    reverted: { type: 'integer', description: 'Records the revert changed.' },
  },
  required: ['operation_id', 'reverts', 'state', 'progress', 'conflicts', 'reverted'],
} as const

export const operationSchema = {
  title: 'Operation',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    started_at: { type: 'string', format: 'date-time' },
    ended_at: { type: 'string', format: 'date-time' },
    actor: historyActorSchema,
    channel: { type: 'string', enum: [...recordChanges.CHANNELS] },
    counts: {
      type: 'object',
      properties: { created: { type: 'integer' }, updated: { type: 'integer' }, deleted: { type: 'integer' }, restored: { type: 'integer' } },
      required: ['created', 'updated', 'deleted', 'restored'],
    },
    kinds: { type: 'array', items: { type: 'string' } },
    reverted_by: nullableUuid,
    reverts: nullableUuid,
    revert: { anyOf: [revertStatusSchema, { type: 'null' }] },
  },
  required: ['id', 'started_at', 'ended_at', 'actor', 'channel', 'counts', 'kinds', 'reverted_by', 'reverts', 'revert'],
} as const

export const operationPageSchema = pageSchemaOf(operationSchema, 'OperationPage')

export const operationsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Operations per page, 1-200.' },
    cursor: { ...uuidSchema, description: 'The next_cursor of the previous page.' },
    client_id: { type: 'string', minLength: 1, maxLength: 2000, description: "Only this API client's operations." },
    user_id: { ...uuidSchema, description: "Only this person's operations." },
    channel: { type: 'string', enum: [...recordChanges.CHANNELS] },
    since: { type: 'string', format: 'date-time', description: 'Only operations that wrote at or after this time (e.g. the last day).' },
  },
} as const

export const revertBodySchema = {
  title: 'RevertRequest',
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { force: { type: 'boolean', default: false, description: 'Undo also what was changed since the operation (by default such changes are left alone and reported as conflicts).' } },
} as const
