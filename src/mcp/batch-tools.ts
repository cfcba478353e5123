/**
 * The MCP tools for many records at once and for imports: `batch_write_records` (create, update,
 * upsert or delete up to 1,000 records of one kind, all or nothing) and `upsert_record` (create or
 * update the record with a src_id). Both call the records' batch door, as POST /{kind}/batch and
 * PUT /{kind}/by-src-id/{src_id} do, so checks, events, redaction and the src_id race are REST's.
 */
import { ValidationFailed, type FieldError } from '../shared/errors.ts'
import { recordBulk, recordSchemas } from '../records/index.ts'
import type { BatchOperation } from '../records/index.ts'
import { createBodySchema, recordKinds, type RecordKind } from '../records/contracts.ts'
import { commentCaseId, idSchema, kindOf, kindSchema, recordOutputSchema } from './record-view.ts'
import { check, HINTS, writeScopes, type Args, type JsonSchema, type McpTool } from './tool-kit.ts'

const createSchemas = new Map<RecordKind, JsonSchema>(recordKinds.map((k) => [k, createBodySchema(k)]))

const caseIdArgument = idSchema('case the comments belong to (kind case_comment only, and then required)')

const OUTCOMES = ['created', 'updated', 'deleted'] as const
type Outcome = (typeof OUTCOMES)[number]

const batchOutputSchema: JsonSchema = {
  type: 'object',
  properties: {
    kind: { type: 'string' },
    operation: { type: 'string', enum: [...recordBulk.BATCH_OPERATIONS] },
    count: { type: 'integer', description: 'How many records were written (all of them: a batch is all or nothing).' },
    counts: {
      type: 'object',
      properties: Object.fromEntries(OUTCOMES.map((o) => [o, { type: 'integer' }])),
      required: [...OUTCOMES],
    },
    items: {
      type: 'array',
      description: 'One per item of `records`, in the same order.',
      items: {
        type: 'object',
        properties: {
          index: { type: 'integer', description: 'Position of the item in `records`.' },
          id: { type: 'string', format: 'uuid' },
          outcome: { type: 'string', enum: [...OUTCOMES] },
          record: { ...recordOutputSchema, description: 'The record after the write, as this token may read it (absent for deletes).' },
        },
        required: ['index', 'id', 'outcome'],
      },
    },
  },
  required: ['kind', 'operation', 'count', 'counts', 'items'],
}

/** Batches over this many records are confirmed by the person first, whatever the operation (docs/mcp.md). */
export const CONFIRM_BATCH_ABOVE = 100

/** Deletes cannot be undone; a large batch changes more than a person can check afterwards. */
function batchQuestion(_ctx: unknown, args: Args): string | null {
  const count = Array.isArray(args.records) ? args.records.length : 0
  const kind = kindOf(args)?.labelPlural.toLowerCase() ?? 'records'
  if (args.operation === 'delete') return `Delete ${count} ${kind} for good? This cannot be undone.`
  if (count > CONFIRM_BATCH_ABOVE) return `Write (${String(args.operation)}) ${count} ${kind} at once?`
  return null
}

const batchWriteTool: McpTool = {
  name: 'batch_write_records',
  title: 'Write many records at once',
  description: [
    `Creates, changes, upserts or deletes 1-${recordBulk.MAX_BATCH_RECORDS} records of one kind in one transaction, exactly like POST /api/v1/{kind}/batch. All or nothing:`,
    'if any item is invalid nothing is written, and the error lists every problem with the item\'s `index` and field (records[3].email); fix those items and send the batch again.',
    'Items per `operation` (fields as listed for create_record; case comments: body, is_public, author_name):',
    '- create: the fields of a new record;',
    '- update: `id` plus the fields to change (null clears a field);',
    '- upsert: the fields of a record with its `src_id` (required): the record of this kind with that src_id is updated, or created when there is none;',
    '- delete: `{"id": ...}`.',
    'For kind case_comment pass `case_id`: the comments of that case. Each record written raises its usual webhook events.',
    'Returns one item per record in input order with its id, outcome (created, updated, deleted) and the record as this token may read it. Needs the crm:write scope.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'operation', 'records'],
    properties: {
      kind: kindSchema(recordKinds),
      operation: { type: 'string', enum: [...recordBulk.BATCH_OPERATIONS], description: 'What to do with every record of the batch.' },
      // Items are not typed here: the batch checks each one against its operation's schema, so a
      // refusal names every failing item by index (a schema failure here would stop at the first).
      records: {
        type: 'array',
        minItems: 1,
        maxItems: recordBulk.MAX_BATCH_RECORDS,
        items: { description: 'An object: see the items per operation in the description.' },
        description: `1-${recordBulk.MAX_BATCH_RECORDS} items, all for the same operation.`,
      },
      case_id: caseIdArgument,
    },
  },
  outputSchema: batchOutputSchema,
  annotations: HINTS.batch,
  scopes: writeScopes,
  confirm: batchQuestion,
  async run(ctx, args) {
    const kind = kindOf(args)!
    const operation = args.operation as BatchOperation
    const result = await recordBulk.writeBatch(ctx.db, ctx.writer, kind, operation, args.records as unknown[], { caseId: commentCaseId(kind, args) })
    const items = result.ids.map((id, index) => {
      const outcome: Outcome = operation === 'delete' ? 'deleted' : result.created[index] ? 'created' : 'updated'
      return operation === 'delete' ? { index, id, outcome } : { index, id, outcome, record: result.records[index] }
    })
    const counts = Object.fromEntries(OUTCOMES.map((o) => [o, items.filter((i) => i.outcome === o).length]))
    return { value: { kind: kind.name, operation, count: items.length, counts, items } }
  },
}

/** The batch names the one item as records[0]; this tool's arguments are `fields` and `src_id`. */
function asArguments(err: unknown): unknown {
  if (!(err instanceof ValidationFailed) || !err.errors) return err
  const errors: FieldError[] = err.errors.map((e) => {
    const field = e.field.replace(/^records\[0\]\.?/, '')
    return { field: field === 'src_id' ? 'src_id' : field ? `fields.${field}` : 'fields', message: e.message }
  })
  return new ValidationFailed(`Invalid arguments: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, errors)
}

const upsertRecordTool: McpTool = {
  name: 'upsert_record',
  title: 'Create or update a record by its source id',
  description:
    'Creates or updates the record of a kind whose src_id (the id in the system it comes from) is `src_id`, exactly like PUT /api/v1/{kind}/by-src-id/{src_id}: ' +
    'when there is one, only the fields sent change; when there is none, it is created, so `fields` must hold what create_record requires. ' +
    'Calls racing on one src_id write one record. Fields as listed for create_record; for kind case_comment pass `case_id`. ' +
    'Returns `created` (true when the record is new) and the record as this token may read it. Needs the crm:write scope.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'src_id', 'fields'],
    properties: {
      kind: kindSchema(recordKinds),
      src_id: { type: 'string', minLength: 1, maxLength: recordSchemas.MAX_SRC_ID, description: 'The source system\'s id of the record; unique per organization and kind.' },
      fields: { type: 'object', description: 'The record\'s fields by name (see create_record); src_id may be left out here.' },
      case_id: caseIdArgument,
    },
  },
  outputSchema: {
    type: 'object',
    properties: { created: { type: 'boolean', description: 'true: a new record (REST answers 201); false: the existing one was updated (200).' }, record: recordOutputSchema },
    required: ['created', 'record'],
  },
  annotations: HINTS.overwrite,
  scopes: writeScopes,
  async run(ctx, args) {
    const kind = kindOf(args)!
    const fields = args.fields as Args
    const caseId = commentCaseId(kind, args)
    check(createSchemas.get(kind)!, fields, 'fields.')
    if (fields.src_id !== undefined && fields.src_id !== args.src_id) {
      throw new ValidationFailed('Invalid arguments: fields.src_id must be the src_id argument, or be left out.', [{ field: 'fields.src_id', message: 'must equal the src_id argument' }])
    }
    try {
      const result = await recordBulk.writeBatch(ctx.db, ctx.writer, kind, 'upsert', [{ ...fields, src_id: args.src_id }], { caseId })
      return { value: { created: result.created[0], record: result.records[0] } }
    } catch (err) {
      throw asArguments(err)
    }
  },
}

export const batchTools: McpTool[] = [batchWriteTool, upsertRecordTool]
