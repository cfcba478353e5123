/**
 * Documents idempotent retries in the OpenAPI document: the Idempotency-Key parameter on every
 * POST, PATCH, PUT and DELETE under /api/v1, the Idempotent-Replayed header on the answers a key
 * keeps, and the 409 and 422 answers of a key in use or reused. Added to the generated document
 * rather than to each route's schema, so no route can miss it.
 */
import { operationsOf } from '../openapi-operations.ts'
import { keepsAnswer } from './idempotency.hooks.ts'

type Json = Record<string, any>

const WRITE_OPERATIONS = ['post', 'patch', 'put', 'delete']

const KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first complete answer is kept for 24 hours per organization, caller and key, and a repeat of the same request gets it again without writing anything. 1-255 visible ASCII characters; a UUID is a good key. See "Idempotent retries" in docs/api.md.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
}

const REPLAYED_HEADER = {
  description: '`true` when this answer is the kept answer of an earlier request with the same Idempotency-Key.',
  schema: { type: 'string', enum: ['true'] },
}

function problemResponse(operation: Json, description: string): Json {
  const content = operation.responses?.['400']?.content
  return content ? { description, content } : { description }
}

export function documentIdempotency(document: Json): Json {
  document.components ??= {}
  document.components.parameters = { ...document.components.parameters, IdempotencyKey: KEY_PARAMETER }
  document.components.headers = { ...document.components.headers, IdempotentReplayed: REPLAYED_HEADER }
  for (const operation of operationsOf(document, WRITE_OPERATIONS, '/api/v1/')) {
    operation.parameters = [...(operation.parameters ?? []).filter((p: Json) => p.$ref !== '#/components/parameters/IdempotencyKey'), { $ref: '#/components/parameters/IdempotencyKey' }]
    operation.responses ??= {}
    for (const [status, response] of Object.entries<Json>(operation.responses)) {
      if (!/^\d{3}$/.test(status) || !keepsAnswer(Number(status))) continue
      response.headers = { ...response.headers, 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } }
    }
    operation.responses['409'] ??= problemResponse(operation, 'Conflict; `idempotency_key_in_use` while an earlier request with the same Idempotency-Key is still running.')
    operation.responses['422'] ??= problemResponse(operation, '`idempotency_key_reused`: the Idempotency-Key was sent before with a different request.')
  }
  return document
}
