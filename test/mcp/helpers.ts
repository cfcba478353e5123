/**
 * Shared plumbing for the MCP suites: a live service per file with two organizations, real OAuth
 * tokens obtained through consent, the SDK's Client connected with a token, raw JSON-RPC POSTs for
 * the HTTP-level rules, and an OAuthClientProvider that signs in and consents like a person would.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { sql } from 'kysely'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { MemoryOAuthProvider } from '../helpers/oauth-provider.ts'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createTestDatabase, type TargetName, type TestDatabase } from '../helpers/databases.ts'
import { consent, signIn, startLiveService, type LiveService } from '../helpers/live-service.ts'
import { createOrgWithAdmin, type Member } from '../helpers/build-app.ts'
import { confidentialClient, obtainTokens, type TestClient } from '../oauth/helpers.ts'

export interface McpWorld {
  svc: LiveService
  tdb: TestDatabase
  /** Organization A's admin and confidential client; B is the other tenant. */
  a: Member
  b: Member
  clientA: TestClient
  clientB: TestClient
  mcpUrl: string
}

/** One live service per file; before each test, empty tenants A and B with an admin and a client each. */
export function mcpWorldPerFile(target: TargetName): McpWorld {
  const world = {} as McpWorld
  beforeAll(async () => {
    world.tdb = await createTestDatabase(target)
    world.svc = await startLiveService(world.tdb.database)
    world.mcpUrl = `${world.svc.url}/mcp`
  })
  afterAll(async () => {
    await world.svc?.close()
    await world.tdb?.drop()
  })
  beforeEach(async () => {
    await world.tdb.reset()
    await sql`TRUNCATE oauth_clients CASCADE`.execute(world.svc.app.db)
    await sql`DELETE FROM rate_limit_counters`.execute(world.svc.app.db)
    world.a = await createOrgWithAdmin(world.svc.app, 'Org A')
    world.b = await createOrgWithAdmin(world.svc.app, 'Org B')
    world.clientA = await confidentialClient(world.svc.app, world.a.orgId)
    world.clientB = await confidentialClient(world.svc.app, world.b.orgId)
  })
  return world
}

export interface SeenChange {
  action: string
  kind: string
  id: string
  org: string
}

/**
 * The record changes written during each test, as the app's change journal receives them (the
 * journal is an object the app wires, so a test can watch it without any global registry).
 */
export function recordChangesPerTest(world: McpWorld): SeenChange[] {
  const seen: SeenChange[] = []
  let restore: (() => void) | null = null
  beforeEach(() => {
    seen.length = 0
    const journal = world.svc.app.changeJournal
    const record = journal.record
    journal.record = (trx, writer, action, changes, options) => {
      for (const change of changes) seen.push({ action, kind: change.kind.name, id: change.id, org: writer.auth.orgId })
      return record.call(journal, trx, writer, action, changes, options)
    }
    restore = () => (journal.record = record)
  })
  afterEach(() => restore?.())
  return seen
}

/** An access token through consent and the token endpoint, for /mcp unless another resource is named. */
export async function tokenFor(world: McpWorld, who: 'a' | 'b', scope: string, resource = world.mcpUrl): Promise<string> {
  const member = who === 'a' ? world.a : world.b
  const client = who === 'a' ? world.clientA : world.clientB
  const tokens = await obtainTokens(world.svc.app, member, client, { scope, resource })
  return tokens.access_token
}

/** The SDK's own client over Streamable HTTP, sending a fixed bearer token. */
export async function connectWithToken(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'cairn-mcp-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  return client
}

/** A tool call's structured result, failing loudly when the tool reported an error. */
export async function call<T = any>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult
  if (res.isError) throw new Error(`${name} failed: ${JSON.stringify(res.content)}`)
  return res.structuredContent as T
}

/**
 * A call of a tool that asks first (delete, large or deleting batches): the first call must answer
 * confirmation_required with a token (this client, a 2025-era one, cannot be elicited from), and the
 * same call with `confirm` runs it, as a model does once the person agreed.
 */
export async function callConfirmed<T = any>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const asked = await callError(client, name, args)
  if (asked.code !== 'confirmation_required' || typeof asked.confirm_token !== 'string') throw new Error(`${name} did not ask for confirmation: ${JSON.stringify(asked)}`)
  return call<T>(client, name, { ...args, confirm: asked.confirm_token })
}

/** A tool call expected to fail: its structured error. */
export async function callError(client: Client, name: string, args: Record<string, unknown>): Promise<{ status: number; code: string; detail: string; errors?: { field: string; message: string }[]; confirm_token?: string; text: string }> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult
  if (!res.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(res.structuredContent)}`)
  const error = (res.structuredContent as { error: any }).error
  return { ...error, text: (res.content[0] as { text: string }).text }
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/** A raw JSON-RPC POST to /mcp, for what the SDK client would hide (status codes, headers). */
export function postMcp(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18', ...headers }, body: JSON.stringify(body) })
}

export function rpc(method: string, params: Record<string, unknown> = {}, id = 1) {
  return { jsonrpc: '2.0', id, method, params }
}

export const INITIALIZE = rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } })

/**
 * An MCP host's OAuth side kept in memory. On redirect it signs in as `person` and consents through
 * the real pages, then hands the code back, as a host's callback would. `keepRefreshToken: false`
 * models a host that asks the person again instead of refreshing (see step-up in docs/mcp.md).
 */
export class ConsentingProvider extends MemoryOAuthProvider {
  code?: string
  authorizations: URL[] = []
  private readonly base: string
  private readonly person: { email: string; password: string }
  private readonly keepRefreshToken: boolean
  constructor(base: string, person: { email: string; password: string }, options: { client?: OAuthClientInformationMixed; keepRefreshToken?: boolean } = {}) {
    super(options.client)
    this.base = base
    this.person = person
    this.keepRefreshToken = options.keepRefreshToken ?? true
  }
  override saveTokens(tokens: OAuthTokens) {
    this.saved = this.keepRefreshToken ? tokens : { ...tokens, refresh_token: undefined }
  }
  override async redirectToAuthorization(url: URL) {
    this.authorizations.push(url)
    const callback = await consent(url.href, await signIn(this.base, this.person.email, this.person.password))
    if (callback.searchParams.get('state') !== this.state()) throw new Error(`state not echoed: ${callback.href}`)
    this.code = callback.searchParams.get('code') ?? undefined
    if (!this.code) throw new Error(`no code: ${callback.href}`)
  }
}
