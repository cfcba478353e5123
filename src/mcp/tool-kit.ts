/**
 * What every MCP tool is made of, and the plumbing they share: a tool is plain data (name, JSON
 * schemas, annotations, the scopes it needs, a `run` function), so the HTTP scope check and the
 * server read the same definition. Arguments are validated by the project's Ajv against JSON
 * schemas (REST's own where a record is involved), so bad input gets REST's field messages; results
 * and failures leave as structured content with a readable text beside it.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import * as z from 'zod/v4'
import type { AuthInfo, CallToolResult, InputRequiredResult, ToolAnnotations } from '@modelcontextprotocol/server'
import type { DB } from '../db/database.ts'
import type { AuthContext, Scope } from '../shared/auth-context.ts'
import { Forbidden, InvalidCursor, InvalidLimit, problemFromDatabaseRefusal, ProblemError, ValidationFailed, type FieldError } from '../shared/errors.ts'
import { findUnstorableText } from '../shared/storable-text.ts'
import { fieldErrors, validatorCompiler } from '../http/validation.ts'
import type { RawJsonReplies } from './raw-json.ts'
import type { Writer } from '../records/index.ts'
import type { SecretBox } from '../shared/secret-box.ts'

export type JsonSchema = Record<string, unknown>
export type Args = Record<string, unknown>

export interface ToolContext {
  db: Kysely<DB>
  /** For the read tools and resources: a streaming replica when one has the caller's writes (src/db/read-replicas.ts). */
  readDb: Kysely<DB>
  auth: AuthContext
  /** Writes by this request's tools: the caller, the `mcp` channel, and where changes go. */
  writer: Writer
  log: FastifyBaseLogger
  /** Where results already held as JSON text wait to be spliced into the reply (raw-json.ts). */
  replies: RawJsonReplies
  /** Seals confirmation state (confirmation.ts): the service's key, shared by every process on the database. */
  secretBox: SecretBox
  now: Date
}

/**
 * The caller of an MCP request. The route hands it to the SDK as the request's `authInfo`, which
 * the SDK passes to every tool and resource handler, so the server itself is built without it.
 */
export function callerOf(extra: { http?: { authInfo?: AuthInfo } }): ToolContext {
  const ctx = extra.http?.authInfo?.extra?.caller as ToolContext | undefined
  if (!ctx) throw new Error('MCP request without its caller (the route passes it as authInfo)')
  return ctx
}

export function authInfoOf(ctx: ToolContext): AuthInfo {
  // The token itself stays out: handlers act on the verified context, never on the secret.
  return { token: '', clientId: ctx.auth.clientId ?? '', scopes: [...ctx.auth.scopes], extra: { caller: ctx } }
}

export interface McpTool {
  name: string
  title: string
  description: string
  inputSchema: JsonSchema
  /** The success shape; failures are added by `withErrorShape` when the tool is registered. */
  outputSchema: JsonSchema
  annotations: ToolAnnotations
  /** The scopes a call needs (products need erp:read too); checked on the HTTP request first (403). */
  scopes(args: Args): Scope[]
  /**
   * When the call must be confirmed by the person first (a delete, a large or deleting batch, anything
   * that cannot be undone): the question to ask them, or null to run without asking. A tool that
   * declares it gets the whole flow (confirmation.ts): elicitation, or a `confirm` token.
   */
  confirm?(ctx: ToolContext, args: Args): string | null | Promise<string | null>
  run(ctx: ToolContext, args: Args): Promise<ToolOutput>
}

/**
 * A tool's result: a value, or `json` when the tool already holds its result as JSON text of an
 * object (a page or a record from PostgreSQL), which then reaches the reply unparsed (raw-json.ts).
 */
export type ToolOutput = { value: Record<string, unknown> } | { json: string }

/**
 * Tool annotations (hints for hosts, e.g. whether to ask before running): reads; writes that only
 * add (create, comment, escalate, convert); writes that set a value (same call twice, same state);
 * writes that overwrite or remove what was there; batches, which may remove and whose repeat may
 * add again (creates). Unstated hints default to the worst case (MCP 2025-11-25, ToolAnnotations),
 * so each is stated.
 */
export const HINTS = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  add: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  set: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  overwrite: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  batch: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
} satisfies Record<string, ToolAnnotations>

export const writeScopes = (): Scope[] => ['crm:write']

type Validate = ((data: unknown) => boolean) & { errors?: import('ajv').ErrorObject[] | null }
const compiled = new WeakMap<JsonSchema, Validate>()

/** JSON arguments are typed values: the body Ajv (no coercion, no stripping), as REST bodies are. */
function validatorFor(schema: JsonSchema): Validate {
  let validate = compiled.get(schema)
  if (!validate) {
    validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/mcp' }) as unknown as Validate
    compiled.set(schema, validate)
  }
  return validate
}

/**
 * Throws REST's 400 problem when `value` does not match `schema`; `prefix` names where inside the
 * arguments the value sits (`fields.`), so a message points at the argument to fix.
 */
export function check(schema: JsonSchema, value: unknown, prefix = ''): void {
  const validate = validatorFor(schema)
  if (validate(value)) return
  const errors: FieldError[] = fieldErrors(validate.errors ?? [], 'arguments').map((e) => ({
    field: e.field === '(arguments)' ? (prefix.replace(/\.$/, '') || '(arguments)') : `${prefix}${e.field}`,
    message: e.message,
  }))
  if (errors.some((e) => e.field === 'limit')) throw new InvalidLimit()
  if (errors.some((e) => e.field === 'cursor')) throw new InvalidCursor()
  const detail = errors.map((e) => `${e.field} ${e.message}`).join('; ')
  throw new ProblemError(400, 'validation_failed', 'Validation failed', `Invalid arguments: ${detail}.`, errors)
}

/**
 * The SDK takes Zod schemas. A loose object carrying our JSON schema as metadata lists exactly that
 * schema in tools/list and lets every argument through to `check`, so one JSON schema is both what
 * hosts see and what validates, and failures carry REST's messages instead of Zod's.
 */
export function asZod(schema: JsonSchema): z.ZodObject {
  return z.looseObject({}).meta(schema)
}

export const problemJsonSchema: JsonSchema = {
  type: 'object',
  description: 'What went wrong, as the REST API says it (RFC 9457 problem details).',
  properties: {
    status: { type: 'integer', description: 'The HTTP status the REST API answers for the same failure.' },
    code: { type: 'string', description: 'Stable error code, e.g. validation_failed, not_found, conflict.' },
    title: { type: 'string' },
    detail: { type: 'string' },
    // `index`: a batch's failing item, by its position in `records`.
    confirm_token: { type: 'string', description: 'With code confirmation_required: send the same call again with this as `confirm` once the person agreed.' },
    errors: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' }, index: { type: 'integer' } }, required: ['field', 'message'] } },
  },
  required: ['status', 'code', 'title', 'detail'],
}

/** A tool's output is its success shape or `{error}`: both are structured, so hosts can read either. */
export function withErrorShape(success: JsonSchema): JsonSchema {
  return {
    type: 'object',
    anyOf: [success, { type: 'object', properties: { error: problemJsonSchema }, required: ['error'], additionalProperties: false }],
  }
}

export function success(ctx: ToolContext, out: ToolOutput): CallToolResult {
  if ('json' in out) return ctx.replies.result(out.json)
  return { content: [{ type: 'text', text: JSON.stringify(out.value) }], structuredContent: out.value }
}

export function failure(problem: ProblemError): CallToolResult {
  const error: Record<string, unknown> = { status: problem.status, code: problem.code, title: problem.title, detail: problem.message }
  if (problem.errors?.length) error.errors = problem.errors
  Object.assign(error, problem.extensions)
  const lines = [`${problem.title} (${problem.code}): ${problem.message}`, ...(problem.errors ?? []).map((e) => `- ${e.field}: ${e.message}`)]
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { error }, isError: true }
}

/**
 * What stands between a checked call and its run: nothing (null, run it), or the answer to send
 * instead (a question for the person, a refusal). confirmation.ts supplies it per request.
 */
export type Gate = (tool: McpTool, args: Args) => Promise<CallToolResult | InputRequiredResult | null>

/** Runs a tool: known failures become tool errors, anything else is logged and said generically. */
export async function runTool(tool: McpTool, ctx: ToolContext, given: Args, gate?: Gate): Promise<CallToolResult | InputRequiredResult> {
  // `confirm` belongs to the confirmation flow, not to the tool's own arguments.
  const { confirm: _confirm, ...args } = given
  try {
    const missing = tool.scopes(args).filter((s) => !ctx.auth.scopes.has(s))
    if (missing.length) throw new Forbidden(`This call needs the scope ${missing.join(' and ')}.`, 'insufficient_scope')
    // Text PostgreSQL cannot store is refused as REST refuses it (http/unstorable-text.ts).
    const unstorable = findUnstorableText(args)
    if (unstorable) throw new ValidationFailed(`Invalid arguments: ${unstorable.field} ${unstorable.message}.`, [unstorable])
    check(tool.inputSchema, args)
    const instead = gate ? await gate(tool, args) : null
    if (instead) return instead
    return success(ctx, await tool.run(ctx, args))
  } catch (err) {
    if (err instanceof ProblemError && err.status < 500) return failure(err)
    const refused = problemFromDatabaseRefusal(err)
    if (refused) return failure(refused)
    ctx.log.error({ err, tool: tool.name }, 'MCP tool failed')
    return failure(new ProblemError(500, 'internal_error', 'Internal error', 'Something went wrong on our side. Each write runs in one transaction, so this call changed nothing; try again.'))
  }
}
