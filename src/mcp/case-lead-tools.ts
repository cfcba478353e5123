/**
 * The MCP tools for the special actions: comment on a case, escalate a case, convert a lead. Each
 * calls the same record-writes.ts function as its REST route, so rules (a case escalates once, a
 * lead converts once), tenancy and events match.
 */
import { recordSchemas, recordWrites } from '../records/index.ts'
import type { ConvertLeadInput } from '../records/index.ts'
import { createBodySchema, kindsByName } from '../records/contracts.ts'
import { idSchema, recordOutputSchema } from './record-view.ts'
import { HINTS, writeScopes, type JsonSchema, type McpTool } from './tool-kit.ts'

const commentBody = createBodySchema(kindsByName.case_comment)
const convertProperties = recordSchemas.convertLeadBodySchema.properties as Record<string, JsonSchema>

const addCaseCommentTool: McpTool = {
  name: 'add_case_comment',
  title: 'Comment on a case',
  description:
    'Adds a comment to a case, exactly like POST /api/v1/cases/{id}/comments. `body` is the text (up to 32000 characters); ' +
    '`is_public` (default false) marks a comment the customer may see. Returns the comment. Needs the crm:write scope.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['case_id', 'body'],
    properties: { case_id: idSchema('case'), ...(commentBody.properties as Record<string, JsonSchema>) },
  },
  outputSchema: recordOutputSchema,
  annotations: HINTS.add,
  scopes: writeScopes,
  async run(ctx, args) {
    // The input schema is the comment body's own schema plus case_id, so the rest is a valid body.
    const { case_id: caseId, ...body } = args
    return { value: await recordWrites.addCaseComment(ctx.db, ctx.writer, caseId as string, body) }
  },
}

const escalateCaseTool: McpTool = {
  name: 'escalate_case',
  title: 'Escalate a case',
  description:
    'Escalates a case, exactly like POST /api/v1/cases/{id}/escalate: sets status escalated, is_escalated and escalated_at. ' +
    'A case that is already escalated answers a conflict error. Returns the case. Needs the crm:write scope.',
  inputSchema: { type: 'object', additionalProperties: false, required: ['case_id'], properties: { case_id: idSchema('case') } },
  outputSchema: recordOutputSchema,
  annotations: HINTS.add,
  scopes: writeScopes,
  async run(ctx, args) {
    return { value: await recordWrites.escalateCaseWithEvents(ctx.db, ctx.writer, args.case_id as string) }
  },
}

const convertLeadTool: McpTool = {
  name: 'convert_lead',
  title: 'Convert a lead',
  description:
    'Converts a lead, exactly like POST /api/v1/leads/{id}/convert, in one transaction: creates an account and a contact from the lead (or links the existing ' +
    '`account_id` / `contact_id`), optionally an opportunity (`create_opportunity`, or `opportunity_name`), and marks the lead converted. ' +
    'A lead converts once; again answers a conflict error. Returns the lead, account, contact and opportunity. Needs the crm:write scope.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['lead_id'],
    properties: { lead_id: idSchema('lead'), ...convertProperties },
  },
  outputSchema: {
    type: 'object',
    properties: { lead: recordOutputSchema, account: recordOutputSchema, contact: recordOutputSchema, opportunity: { anyOf: [recordOutputSchema, { type: 'null' }] } },
    required: ['lead', 'account', 'contact', 'opportunity'],
  },
  annotations: HINTS.add,
  scopes: writeScopes,
  async run(ctx, args) {
    const { lead_id: leadId, ...input } = args
    return { value: await recordWrites.convertLeadWithEvents(ctx.db, ctx.writer, leadId as string, input as ConvertLeadInput) }
  },
}

export const caseLeadTools: McpTool[] = [addCaseCommentTool, escalateCaseTool, convertLeadTool]
