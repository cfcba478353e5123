/**
 * Confirmation before destructive actions: a tool that declares `confirm` (tool-kit.ts) runs only
 * after the person said yes (docs/mcp.md, Confirmation). Three ways, by what the client can do:
 *
 * - MCP 2026-07-28 with the elicitation capability: the call answers an `input_required` result
 *   asking the question, with a sealed `requestState`; the client calls again with the person's
 *   answer in `inputResponses` and that state.
 * - Anything else (2025-11-25 and older, which this stateless server cannot elicit from, since the
 *   answer would come back as another request to any process; clients without elicitation): a
 *   tool error `confirmation_required` carrying a sealed `confirm_token`; the same call again with
 *   `confirm: <token>` runs it, once the model asked the person.
 *
 * State and tokens are sealed with the service's secret box (AES-GCM with the operator's key or the
 * database's, so every process opens what another sealed) and bound to the caller (organization,
 * user, client), the tool and its exact arguments, for ten minutes: a tampered state fails to open,
 * and one replayed by another caller or for another call is refused.
 */
import { createHash } from 'node:crypto'
import { acceptedContent, CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server'
import { ProblemError } from '../shared/errors.ts'
import { failure, type Args, type Gate, type McpTool, type ToolContext } from './tool-kit.ts'

/** How long a question stays answerable. */
export const CONFIRMATION_TTL_MS = 10 * 60 * 1000
const INPUT_KEY = 'confirm'

/** What a sealed state or token says: who may use it, for which call, until when. */
interface Pending {
  v: 1
  org: string
  user: string
  client: string
  /** sha256 of the tool name and its arguments (keys sorted), so it confirms exactly one call. */
  call: string
  exp: number
}

/** JSON with object keys sorted, so the same arguments always digest the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value)
}

export function callDigest(toolName: string, args: Args): string {
  return createHash('sha256').update(`${toolName}\n${canonical(args)}`).digest('base64url')
}

function seal(ctx: ToolContext, call: string): string {
  const pending: Pending = { v: 1, org: ctx.auth.orgId, user: ctx.auth.userId ?? '', client: ctx.auth.clientId ?? '', call, exp: ctx.now.getTime() + CONFIRMATION_TTL_MS }
  return ctx.secretBox.seal(JSON.stringify(pending))
}

/** The sealed value's content when it opens, belongs to this caller and has not expired; else null. */
export function openFor(ctx: ToolContext, sealed: string): Pending | null {
  let pending: Pending
  try {
    pending = JSON.parse(ctx.secretBox.open(sealed)) as Pending
  } catch {
    return null
  }
  const mine = pending.v === 1 && pending.org === ctx.auth.orgId && pending.user === (ctx.auth.userId ?? '') && pending.client === (ctx.auth.clientId ?? '')
  return mine && pending.exp > ctx.now.getTime() ? pending : null
}

/**
 * The SDK's requestState hook (ServerOptions.requestState.verify): runs before the handler on every
 * round carrying state; a throw answers JSON-RPC -32602 "Invalid or expired requestState".
 */
export function verifyRequestState(callerOf: (ctx: ServerContext) => ToolContext) {
  return (state: string, sdkCtx: ServerContext): Pending => {
    const pending = openFor(callerOf(sdkCtx), state)
    if (!pending) throw new Error('request state does not open for this caller')
    return pending
  }
}

function mayElicit(sdkCtx: ServerContext): boolean {
  const capabilities = sdkCtx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] as { elicitation?: unknown } | undefined
  return capabilities?.elicitation !== undefined && capabilities.elicitation !== null
}

function declined(): CallToolResult {
  return failure(new ProblemError(409, 'confirmation_declined', 'Not confirmed', 'The person did not confirm this action, so nothing was changed.'))
}

function tokenRefusal(): CallToolResult {
  return failure(new ProblemError(400, 'invalid_confirmation', 'Invalid confirmation', 'The confirmation is not valid for this call: it belongs to another call or caller, was altered, or expired (it lasts ten minutes). Call the tool again without it to ask again.'))
}

function askWithToken(ctx: ToolContext, question: string, call: string): CallToolResult {
  const problem = new ProblemError(
    409,
    'confirmation_required',
    'Confirmation required',
    `${question} Ask the person first. If they agree, call this tool again with exactly the same arguments plus "confirm": the confirm_token below (valid for ten minutes).`,
  )
  problem.extensions.confirm_token = seal(ctx, call)
  const result = failure(problem)
  result.content.push({ type: 'text', text: `confirm_token: ${problem.extensions.confirm_token as string}` })
  return result
}

function askByElicitation(ctx: ToolContext, question: string, call: string): InputRequiredResult {
  return inputRequired({
    inputRequests: {
      [INPUT_KEY]: inputRequired.elicit({
        message: question,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Yes, do it', description: question } }, required: ['confirm'] },
      }),
    },
    requestState: seal(ctx, call),
  })
}

/** The confirmation gate of one tools/call (runTool calls it after the arguments passed their checks). */
export function confirmationGate(ctx: ToolContext, sdkCtx: ServerContext, given: Args): Gate {
  return async (tool: McpTool, args: Args) => {
    const question = await tool.confirm?.(ctx, args)
    if (!question) return null
    const call = callDigest(tool.name, args)

    // A token from an earlier refusal (any revision).
    if (typeof given.confirm === 'string') {
      const pending = openFor(ctx, given.confirm)
      return pending && pending.call === call ? null : tokenRefusal()
    }

    // A 2026-07-28 retry: the SDK already opened the state (verifyRequestState).
    const state = sdkCtx.mcpReq.requestState<Pending>()
    if (state !== undefined) {
      // Sealed for this caller but for another call: refused like a token for another call.
      if (typeof state !== 'object' || state.call !== call) return tokenRefusal()
      const answer = inputResponse(sdkCtx.mcpReq.inputResponses, INPUT_KEY)
      if (answer.kind !== 'elicit') return askByElicitation(ctx, question, call)
      const content = acceptedContent(sdkCtx.mcpReq.inputResponses, INPUT_KEY)
      return content?.confirm === true ? null : declined()
    }

    return mayElicit(sdkCtx) ? askByElicitation(ctx, question, call) : askWithToken(ctx, question, call)
  }
}
