/**
 * The bulk doors of every record kind: `POST /{kind}/batch` (create, update, upsert or delete up to
 * 1,000 records, all or nothing), `PUT /{kind}/by-src-id/{src_id}` (create or update the record with
 * that src_id), and the comments' batch under their case. All go through bulk/batch-write.ts.
 */
import { writerOf } from './write-context.ts'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { idParamsSchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { ValidationFailed } from '../shared/errors.ts'
import type { RecordKind } from './record-kind.ts'
import { kindsByName, recordKinds } from './kinds/index.ts'
import { BATCH_OPERATIONS, batchItemSchema, MAX_BATCH_RECORDS, type BatchOperation } from './bulk/batch-items.ts'
import { writeBatch, type BatchResult } from './bulk/batch-write.ts'
import { createBodySchema, MAX_SRC_ID, pluralName, schemaName, writtenRecordSchema } from './record.schemas.ts'

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema, 409: problemSchema }

function batchBodySchema(kind: RecordKind) {
  return {
    title: `${schemaName(kind)}Batch`,
    type: 'object',
    additionalProperties: false,
    required: ['operation', 'records'],
    properties: {
      operation: { type: 'string', enum: [...BATCH_OPERATIONS], description: 'What to do with every record of the batch.' },
      records: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_BATCH_RECORDS,
        // Each item is checked against its operation's schema by the batch itself, so a refusal can
        // name every failing item by index; the schemas are listed here for clients only.
        items: { type: 'object', 'x-schema-per-operation': Object.fromEntries(BATCH_OPERATIONS.map((op) => [op, batchItemSchema(kind, op)])) },
        description: `1-${MAX_BATCH_RECORDS} items. create: create bodies; update: \`id\` plus the fields to change; upsert: create bodies with \`src_id\`; delete: \`{id}\`.`,
      },
    },
  } as const
}

function batchAnswerSchema(kind: RecordKind) {
  return {
    title: `${schemaName(kind)}BatchResult`,
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'array', items: { anyOf: [writtenRecordSchema(kind), { type: 'string', format: 'uuid' }] }, description: 'The written records in input order (delete: their ids).' } },
  }
}

function sendBatch(reply: FastifyReply, operation: BatchOperation, result: BatchResult): FastifyReply {
  const data = operation === 'delete' ? result.ids : result.records
  return reply.status(200).type('application/json; charset=utf-8').send(JSON.stringify({ data }))
}

const batchDescription =
  'All or nothing: one invalid item answers 400 with `errors[]` naming each failing item by `index` and field, and nothing is written. ' +
  'Each record written emits its usual webhook events, in the same transaction.'

function registerKindBatch(fastify: FastifyInstance, kind: RecordKind): void {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const tags = [kind.labelPlural]
  app.post(
    `/${kind.path}/batch`,
    {
      schema: { operationId: `batch${pluralName(kind)}`, tags, summary: `Create, change, upsert or delete up to ${MAX_BATCH_RECORDS} ${kind.labelPlural.toLowerCase()}`, description: batchDescription, body: batchBodySchema(kind), response: { 200: batchAnswerSchema(kind), ...errors } },
      onRequest: requireScopes('crm:write'),
    },
    async (request, reply) => {
      const { operation, records } = request.body
      return sendBatch(reply, operation, await writeBatch(app.db, writerOf(request), kind, operation, records))
    },
  )
  app.put(
    `/${kind.path}/by-src-id/:src_id`,
    {
      schema: {
        operationId: `upsert${schemaName(kind)}BySrcId`,
        tags,
        summary: `Create or update the ${kind.label.toLowerCase()} with this src_id`,
        description: 'Upsert by the source id: 201 with the new record, or 200 with the record changed (only the fields sent change). Concurrent calls with one src_id write one record.',
        params: { type: 'object', required: ['src_id'], additionalProperties: false, properties: { src_id: { type: 'string', minLength: 1, maxLength: MAX_SRC_ID } } },
        body: createBodySchema(kind),
        response: { 200: writtenRecordSchema(kind), 201: writtenRecordSchema(kind), ...errors },
      },
      onRequest: requireScopes('crm:write'),
    },
    async (request, reply) => {
      const { src_id: srcId } = request.params
      const body = request.body
      if (body.src_id !== undefined && body.src_id !== srcId) {
        throw new ValidationFailed('src_id in the body must be the one in the path, or be left out.', [{ field: 'src_id', message: 'must equal the src_id in the path' }])
      }
      const result = await writeBatch(app.db, writerOf(request), kind, 'upsert', [{ ...body, src_id: srcId }])
      const record = result.records[0]
      if (result.created[0]) reply.header('location', `/api/v1/${kind.path}/${record.id}`)
      return reply.status(result.created[0] ? 201 : 200).type('application/json; charset=utf-8').send(JSON.stringify(record))
    },
  )
}

function registerCommentBatch(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const comment = kindsByName.case_comment
  app.post(
    '/cases/:id/comments/batch',
    {
      schema: { operationId: 'batchCaseComments', tags: [comment.labelPlural], summary: `Add, change or delete up to ${MAX_BATCH_RECORDS} comments of a case`, description: batchDescription, params: idParamsSchema, body: batchBodySchema(comment), response: { 200: batchAnswerSchema(comment), ...errors } },
      onRequest: requireScopes('crm:write'),
    },
    async (request, reply) => {
      const { operation, records } = request.body
      return sendBatch(reply, operation, await writeBatch(app.db, writerOf(request), comment, operation, records, { caseId: request.params.id }))
    },
  )
}

export async function batchRoutes(app: FastifyInstance): Promise<void> {
  for (const kind of recordKinds) if (kind.name !== 'case_comment') registerKindBatch(app, kind)
  registerCommentBatch(app)
}
