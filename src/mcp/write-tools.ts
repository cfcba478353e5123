/**
 * The MCP tools that create, change and delete records. Bodies are checked against REST's own
 * create/patch schemas and written through record-writes.ts, so validation, tenancy and webhook
 * events are exactly those of POST/PATCH/DELETE /api/v1/{kind}.
 */
import { NotFound } from '../shared/errors.ts'
import { recordAccess, recordReads, recordWrites } from '../records/index.ts'
import { OPPORTUNITY_STAGES, createBodySchema, kindsByName, patchBodySchema, recordKinds, type RecordKind } from '../records/contracts.ts'
import { fieldGuide, idSchema, kindOf, titleOf, kindSchema, recordOutputSchema, TOP_LEVEL_KINDS } from './record-view.ts'
import { withOwnerByEmail } from './owner-argument.ts'
import { check, HINTS, writeScopes, type Args, type JsonSchema, type McpTool, type ToolContext } from './tool-kit.ts'

const createSchemas = new Map<RecordKind, JsonSchema>(recordKinds.map((k) => [k, createBodySchema(k)]))
const patchSchemas = new Map<RecordKind, JsonSchema>(recordKinds.map((k) => [k, patchBodySchema(k)]))

const fieldsArgument: JsonSchema = {
  type: 'object',
  description: 'The record\'s fields by name (see the field list in the description); every kind also takes src_id and custom_fields (a JSON object).',
}

const createRecordTool: McpTool = {
  name: 'create_record',
  title: 'Create a record',
  description: [
    'Creates a record of a kind, exactly like POST /api/v1/{kind}: same validation, same webhook events. Returns the new record.',
    'Fields per kind (* = required; enum values in parentheses; decimals as strings):',
    fieldGuide(TOP_LEVEL_KINDS),
    'Add comments to a case with add_case_comment. Needs the crm:write scope.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'fields'],
    properties: { kind: kindSchema(TOP_LEVEL_KINDS), fields: fieldsArgument },
  },
  outputSchema: recordOutputSchema,
  annotations: HINTS.add,
  scopes: writeScopes,
  async run(ctx, args) {
    const kind = kindOf(args)!
    const fields = await withOwnerByEmail(ctx, kind, args.fields)
    check(createSchemas.get(kind)!, fields, 'fields.')
    return { value: await recordWrites.createWithEvents(ctx.db, ctx.writer, kind, fields as Args) }
  },
}

const updateRecordTool: McpTool = {
  name: 'update_record',
  title: 'Change a record',
  description:
    'Changes fields of a record, exactly like PATCH /api/v1/{kind}/{id}: only the fields sent change, null clears a field; the fields are those listed for create_record ' +
    '(case comments: body, is_public, author_name). Returns the record after the change. Needs the crm:write scope.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'id', 'fields'],
    properties: { kind: kindSchema(recordKinds), id: idSchema('record to change'), fields: { ...fieldsArgument, minProperties: 1 } },
  },
  outputSchema: recordOutputSchema,
  annotations: HINTS.overwrite,
  scopes: writeScopes,
  async run(ctx, args) {
    const kind = kindOf(args)!
    const fields = await withOwnerByEmail(ctx, kind, args.fields)
    check(patchSchemas.get(kind)!, fields, 'fields.')
    const written = await recordWrites.updateWithEvents(ctx.db, ctx.writer, kind, args.id as string, fields as Args)
    if (!written) throw new NotFound(kind.label)
    return { value: written }
  },
}

/**
 * The question names the record when the caller may read it, and a record that is not there is a
 * 404 before anyone is asked (as the delete itself would answer).
 */
async function deleteQuestion(ctx: ToolContext, args: Args): Promise<string> {
  const kind = kindOf(args)!
  const label = kind.label.toLowerCase()
  if (!recordAccess.mayRead(kind, ctx.auth)) return `Delete the ${label} ${String(args.id)} for good? This cannot be undone.`
  const json = await recordReads.getRecord(ctx.db, ctx.auth, kind, args.id as string)
  if (json === null) throw new NotFound(kind.label)
  return `Delete the ${label} "${titleOf(kind, JSON.parse(json) as Record<string, unknown>)}" for good? This cannot be undone.`
}

const deleteRecordTool: McpTool = {
  name: 'delete_record',
  title: 'Delete a record',
  description: 'Deletes a record for good, exactly like DELETE /api/v1/{kind}/{id} (a deleted case takes its comments with it). Needs the crm:write scope.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'id'],
    properties: { kind: kindSchema(recordKinds), id: idSchema('record to delete') },
  },
  outputSchema: {
    type: 'object',
    properties: { deleted: { type: 'boolean', const: true }, kind: { type: 'string' }, id: { type: 'string' } },
    required: ['deleted', 'kind', 'id'],
  },
  annotations: HINTS.overwrite,
  scopes: writeScopes,
  // A deleted record cannot be brought back: the person says yes first (docs/mcp.md, Confirmation).
  confirm: deleteQuestion,
  async run(ctx, args) {
    const kind = kindOf(args)!
    if (!(await recordWrites.deleteWithEvents(ctx.db, ctx.writer, kind, args.id as string))) throw new NotFound(kind.label)
    return { value: { deleted: true, kind: kind.name, id: args.id as string } }
  },
}

const changeStageTool: McpTool = {
  name: 'change_opportunity_stage',
  title: 'Change an opportunity\'s stage',
  description:
    'Moves an opportunity to another stage of the pipeline (a PATCH of its stage: webhooks get opportunity.updated and opportunity.stage_changed). ' +
    `Stages in order: ${OPPORTUNITY_STAGES.join(', ')}. Returns the opportunity. Needs the crm:write scope.`,
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['opportunity_id', 'stage'],
    properties: { opportunity_id: idSchema('opportunity'), stage: { type: 'string', enum: [...OPPORTUNITY_STAGES], description: 'The new stage.' } },
  },
  outputSchema: recordOutputSchema,
  // The previous stage is replaced (the event keeps it, the record does not): a destructive update.
  annotations: HINTS.overwrite,
  scopes: writeScopes,
  async run(ctx, args) {
    const kind = kindsByName.opportunity
    const written = await recordWrites.updateWithEvents(ctx.db, ctx.writer, kind, args.opportunity_id as string, { stage: args.stage })
    if (!written) throw new NotFound(kind.label)
    return { value: written }
  },
}

export const writeTools: McpTool[] = [createRecordTool, updateRecordTool, deleteRecordTool, changeStageTool]
