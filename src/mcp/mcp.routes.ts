/**
 * The /mcp endpoint (Streamable HTTP, stateless, JSON responses), serving MCP 2026-07-28 and the
 * 2025 revisions from one handler of the SDK v2 (docs/mcp.md, Revisions). Each request is
 * classified: a 2026-07-28 request (its `_meta` envelope, `Mcp-Method` header; `server/discover`)
 * goes to the SDK's per-request handler; a 2025-era one to a fresh stateless streamable transport
 * answering JSON, as before. Either way a server is built for the request and nothing outlives it,
 * so any process answers any request. The reply goes out through Fastify (hooks, logging, headers
 * and the error handler stay Fastify's); results held as JSON text are spliced in there
 * (raw-json.ts). GET and DELETE answer 405: no session, no server-initiated stream. Origin, bearer
 * token and scopes are checked first (mcp-access.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Writer } from '../records/index.ts'
import { uuidv7 } from '../shared/ids.ts'
import type { IncomingHttpHeaders } from 'node:http'
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo } from '@modelcontextprotocol/server'
import { makeBearerVerifier, resourcesOf, type ClientUses } from '../oauth/index.ts'
import type { Clock } from '../shared/clock.ts'
import { allowedOrigins, checkOrigin, checkScopes, mcpAuthenticator, mcpResourceMetadataUrl } from './mcp-access.ts'
import { buildMcpServer } from './mcp-server.ts'
import { authInfoOf } from './tool-kit.ts'
import { RawJsonReplies } from './raw-json.ts'
import { rpcParseError } from './rpc-parse-error.ts'
import pkg from '../../package.json' with { type: 'json' }

/**
 * The headers the SDK reads: Accept and Content-Type, and every `Mcp-` header (the protocol version,
 * 2026-07-28's `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`, which it checks against the body).
 * Authorization and Origin were checked already; copying every header showed up in profiles.
 */
function transportHeaders(headers: IncomingHttpHeaders): [string, string][] {
  const out: [string, string][] = []
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') continue
    if (name === 'accept' || name === 'content-type' || name.startsWith('mcp-') || name === 'last-event-id') out.push([name, value])
  }
  return out
}

// The SDK reads only the method and these headers of the Request (the body goes in parsed), and
// never consumes it, so one Request per distinct header set serves every request that sends it.
const requestsByHeaders = new Map<string, Request>()
const MAX_CACHED_REQUESTS = 256

function transportRequest(url: string, headers: IncomingHttpHeaders): Request {
  const pairs = transportHeaders(headers)
  const key = pairs.map(([n, v]) => `${n}:${v}`).join('\n')
  let request = requestsByHeaders.get(key)
  if (!request) {
    request = new Request(url, { method: 'POST', headers: pairs })
    if (requestsByHeaders.size >= MAX_CACHED_REQUESTS) requestsByHeaders.delete(requestsByHeaders.keys().next().value!)
    requestsByHeaders.set(key, request)
  }
  return request
}

/**
 * Detaches the server from its transport. The SDK's close builds a "Connection closed" error for
 * the handlers of requests this server sent, which a server that only answers never has; its stack
 * trace alone cost about 3% of a request (bench/mcp.ts), so it is built without one. close() runs
 * synchronously up to its end, so the limit is back before any other code runs.
 */
function closeQuietly(transport: WebStandardStreamableHTTPServerTransport): Promise<void> {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return transport.close()
  } finally {
    Error.stackTraceLimit = limit
  }
}

/** A 2025-era request: a fresh server on a stateless transport that answers JSON (no SSE stream). */
async function serveLegacy(request: Request, parsedBody: unknown, authInfo: AuthInfo): Promise<Response> {
  const server = buildMcpServer(pkg.version)
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request, { parsedBody, authInfo })
  } finally {
    await closeQuietly(transport)
  }
}

/** The writer of an MCP request's tools: its caller, by the `mcp` door, one operation per request. */
function mcpWriter(request: FastifyRequest): Writer {
  const auth = request.auth!
  return { auth, actor: { userId: auth.userId, clientId: auth.clientId ?? null, channel: 'mcp' }, operationId: uuidv7(), journal: request.server.changeJournal }
}

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string, data?: unknown): FastifyReply {
  return reply.status(status).type('application/json').send(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data === undefined ? {} : { data }) }, id: null }))
}

export async function mcpRoutes(app: FastifyInstance, opts: { clock: Clock; clientUses: ClientUses }): Promise<void> {
  const { publicUrl } = app.config
  const verify = makeBearerVerifier(app.db, opts.clock, resourcesOf(publicUrl), 'mcp', mcpResourceMetadataUrl(publicUrl), opts.clientUses)
  const authenticate = mcpAuthenticator(verify, publicUrl)
  const origins = allowedOrigins(app.config)
  const mcpUrl = `${publicUrl}/mcp`

  // Scoped to this plugin: only /mcp passes through these (CORS preflight is answered before them).
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    checkOrigin(request, origins)
    await authenticate(request)
  })

  // A body that cannot be read as JSON is a JSON-RPC parse error; every other failure goes on to the
  // service's handler (a problem, as 401, 403 and 413 always were here).
  app.setErrorHandler((err: { code?: string; message: string }, _request, reply) => {
    const parse = rpcParseError(err)
    if (!parse) throw err
    return jsonRpcError(reply, 400, -32700, parse.message, { code: parse.problem })
  })

  // 2026-07-28 requests: the SDK's per-request handler, a fresh server each (no legacy leg here: the
  // route sends 2025-era requests to serveLegacy, which answers JSON as this endpoint always has).
  const modern = createMcpHandler(() => buildMcpServer(pkg.version), {
    legacy: 'reject',
    responseMode: 'json',
    maxRequestBodySize: app.config.bodyLimitBytes,
    onerror: (err) => app.log.debug({ err }, 'MCP request refused'),
  })
  app.addHook('onClose', async () => modern.close())

  app.post('/mcp', { schema: { hide: true }, preHandler: async (request) => checkScopes(request, publicUrl) }, async (request, reply) => {
    const replies = new RawJsonReplies()
    const authInfo = authInfoOf({ db: app.db, readDb: app.readDb, auth: request.auth!, writer: mcpWriter(request), log: request.log, replies, secretBox: app.secretBox, now: opts.clock.now() })
    const webRequest = transportRequest(mcpUrl, request.headers)
    const response = (await isLegacyRequest(webRequest, request.body))
      ? await serveLegacy(webRequest, request.body, authInfo)
      : await modern.fetch(webRequest, { authInfo, parsedBody: request.body })
    reply.status(response.status)
    response.headers.forEach((value, name) => void reply.header(name, value))
    // A stream (2026-07-28 subscriptions/listen) never ends: it goes out as it comes, unspliced.
    if (response.headers.get('content-type')?.includes('text/event-stream')) return reply.send(response.body)
    return reply.send(response.body ? replies.splice(await response.text()) : undefined)
  })

  // Stateless: no standalone SSE stream (GET) and no session to end (DELETE), as the SDK's stateless examples answer.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      schema: { hide: true },
      handler: async (_request, reply) => jsonRpcError(reply.header('allow', 'POST'), 405, -32000, 'Method not allowed: this server is stateless; send JSON-RPC messages with POST.'),
    })
  }
}
