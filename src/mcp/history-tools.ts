/**
 * The MCP tools of history and undo: `record_history` (who changed what in a record),
 * `list_operations` (recent operations, e.g. what one API client changed in the last day) and
 * `revert_operation` (undo one operation: destructive, so hosts ask before running it). Each calls
 * the same service as its REST route (src/events), so scopes, shapes and conflicts are REST's.
 */
import { listOperations, recordHistory, revertOperation, revertStatusOf, historyPageSchema, operationPageSchema, revertStatusSchema } from '../events/index.ts'
import { cursorSchema, limitSchema } from '../http/schemas.ts'
import { recordAccess, recordChanges } from '../records/index.ts'
import { recordKinds } from '../records/contracts.ts'
import { idSchema, kindOf, kindSchema } from './record-view.ts'
import { HINTS, writeScopes, type Args, type JsonSchema, type McpTool, type ToolContext } from './tool-kit.ts'

const recordHistoryTool: McpTool = {
  name: 'record_history',
  title: 'History of a record',
  description:
    "Every change of one record, newest first, like GET /api/v1/{kind}/{id}/history: when, who (person, API client, channel), the operation id, and each changed field's old and new value. Works after the record was deleted. Page with `cursor` = next_cursor.",
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'id'],
    properties: { kind: kindSchema(recordKinds), id: idSchema('record'), limit: limitSchema, cursor: cursorSchema },
  },
  outputSchema: historyPageSchema as JsonSchema,
  annotations: HINTS.read,
  scopes: (args) => {
    const kind = kindOf(args)
    return kind ? recordAccess.readScopes(kind) : ['crm:read']
  },
  async run(ctx, args) {
    const page = await recordHistory(ctx.readDb, ctx.db, ctx.auth, kindOf(args)!, args.id as string, args.cursor as string | undefined, (args.limit as number | undefined) ?? 50)
    return { value: page as unknown as Record<string, unknown> }
  },
}

const listOperationsTool: McpTool = {
  name: 'list_operations',
  title: 'List recent operations',
  description:
    'Recent operations (a request, batch, CSV import run, MCP tool call, migration run or revert), newest first, with who made them, counts and kinds touched, like GET /api/v1/operations. Filter with client_id (one API client), user_id, channel, since (ISO time, e.g. a day ago).',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      client_id: { type: 'string', minLength: 1, maxLength: 2000 },
      user_id: idSchema('person'),
      channel: { type: 'string', enum: [...recordChanges.CHANNELS] },
      since: { type: 'string', format: 'date-time' },
      limit: limitSchema,
      cursor: cursorSchema,
    },
  },
  outputSchema: operationPageSchema as JsonSchema,
  annotations: HINTS.read,
  scopes: () => ['crm:read'],
  async run(ctx, args) {
    const filter = { clientId: args.client_id as string | undefined, userId: args.user_id as string | undefined, channel: args.channel as string | undefined, since: args.since as string | undefined }
    const page = await listOperations(ctx.readDb, ctx.auth, filter, args.cursor as string | undefined, (args.limit as number | undefined) ?? 50)
    return { value: page as unknown as Record<string, unknown> }
  },
}

/** An undo changes records back for everyone, so the person confirms it first (docs/mcp.md, Confirmation). */
function revertQuestion(_ctx: ToolContext, args: Args): string {
  const force = args.force === true ? ', overwriting what others changed since' : ''
  return `Undo every change of operation ${String(args.operation_id)}${force}? Records it created are deleted, records it deleted come back and fields it changed are set back.`
}

const revertOperationTool: McpTool = {
  name: 'revert_operation',
  title: 'Undo an operation',
  description:
    'Undoes every change of one operation (find its id with list_operations or record_history), like POST /api/v1/operations/{id}/revert: created records are deleted, deleted ones restored, changed fields set back, except what someone changed since (reported as conflicts) unless force is true. Repeating it answers the same revert. Large operations continue in the background: the answer has state and progress.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['operation_id'],
    properties: { operation_id: idSchema('operation to undo'), force: { type: 'boolean', description: 'Undo also what was changed since the operation.' } },
  },
  outputSchema: revertStatusSchema as JsonSchema,
  annotations: { ...HINTS.batch, idempotentHint: true, destructiveHint: true },
  scopes: writeScopes,
  confirm: revertQuestion,
  async run(ctx, args) {
    const deps = { db: ctx.db, journal: ctx.writer.journal, log: ctx.log, now: () => new Date() }
    const revert = await revertOperation(deps, ctx.auth, 'mcp', args.operation_id as string, args.force === true)
    return { value: revertStatusOf(revert) as unknown as Record<string, unknown> }
  },
}

export const historyTools: readonly McpTool[] = [recordHistoryTool, listOperationsTool, revertOperationTool]
