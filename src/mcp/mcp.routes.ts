/**
 * The /mcp endpoint (Streamable HTTP, stateless, JSON responses): POST carries JSON-RPC to an idle
 * McpServer (built on demand, reused after) and a fresh transport per request. The transport is the SDK's web-standard one (the core that
 * its Node StreamableHTTPServerTransport wraps): it gets the headers and the body Fastify parsed,
 * and its Response goes out through Fastify, so hooks, logging, headers and the error handler stay
 * Fastify's (no hijacked reply; same throughput as the Node wrapper, docs/mcp.md). Results held as
 * JSON text are spliced into the reply there (raw-json.ts). GET and DELETE
 * answer 405: no session, no server-initiated stream. Origin, bearer token and scopes are checked
 * first (mcp-access.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Writer } from '../records/index.ts'
import { uuidv7 } from '../shared/ids.ts'
import type { IncomingHttpHeaders } from 'node:http'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { makeBearerVerifier, resourcesOf, type ClientUses } from '../oauth/index.ts'
import type { Clock } from '../shared/clock.ts'
import { allowedOrigins, checkOrigin, checkScopes, mcpAuthenticator, mcpResourceMetadataUrl } from './mcp-access.ts'
import { buildMcpServer } from './mcp-server.ts'
import { authInfoOf } from './tool-kit.ts'
import { RawJsonReplies } from './raw-json.ts'
import { rpcParseError } from './rpc-parse-error.ts'
import pkg from '../../package.json' with { type: 'json' }

/**
 * The headers the transport reads (Accept, Content-Type, the protocol version and session id).
 * Authorization and Origin were checked already; copying every header showed up in profiles.
 */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'] as const

// The transport reads only the method and these headers of the Request (the body goes in parsed),
// and never consumes it, so one Request per distinct header set serves every request that sends it.
const requestsByHeaders = new Map<string, Request>()
const MAX_CACHED_REQUESTS = 256

function transportRequest(url: string, headers: IncomingHttpHeaders): Request {
  const values = TRANSPORT_HEADERS.map((name) => (typeof headers[name] === 'string' ? headers[name] : ''))
  const key = values.join('\n')
  let request = requestsByHeaders.get(key)
  if (!request) {
    const out = new Headers()
    TRANSPORT_HEADERS.forEach((name, i) => values[i] !== '' && out.set(name, values[i]))
    request = new Request(url, { method: 'POST', headers: out })
    if (requestsByHeaders.size >= MAX_CACHED_REQUESTS) requestsByHeaders.delete(requestsByHeaders.keys().next().value!)
    requestsByHeaders.set(key, request)
  }
  return request
}

/**
 * Detaches the server from its transport. The SDK's close builds a "Connection closed" McpError
 * for the handlers of requests this server sent, which a server that only answers never has; its
 * stack trace alone cost about 3% of a request (bench/mcp.ts), so it is built without one. close()
 * runs synchronously up to its end, so the limit is back before any other code runs.
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

/** The writer of an MCP request's tools: its caller, by the `mcp` door, one operation per request. */
function mcpWriter(request: FastifyRequest): Writer {
  const auth = request.auth!
  return { auth, actor: { userId: auth.userId, clientId: auth.clientId ?? null, channel: 'mcp' }, operationId: uuidv7(), journal: request.server.changeJournal }
}

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string, data?: unknown): FastifyReply {
  return reply.status(status).type('application/json').send(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data === undefined ? {} : { data }) }, id: null }))
}

/**
 * Servers not handling a request. A server carries no caller state between requests (the caller
 * arrives as each request's authInfo; nothing here uses the client capabilities an `initialize`
 * leaves behind), so any idle one serves the next request.
 */
const idleServers: ReturnType<typeof buildMcpServer>[] = []
const MAX_IDLE_SERVERS = 64

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

  app.post('/mcp', { schema: { hide: true }, preHandler: async (request) => checkScopes(request, publicUrl) }, async (request, reply) => {
    const server = idleServers.pop() ?? buildMcpServer(pkg.version)
    const replies = new RawJsonReplies()
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    await server.connect(transport)
    // Only method and headers are read: the body goes in parsed, as Fastify already read it.
    const response = await transport.handleRequest(transportRequest(mcpUrl, request.headers), {
      parsedBody: request.body,
      authInfo: authInfoOf({ db: app.db, readDb: app.readDb, auth: request.auth!, writer: mcpWriter(request), log: request.log, replies }),
    })
    // With JSON responses nothing stays open once this Response exists. The transport is single-use;
    // the server is detached from it and kept for a later request (building one per request cost more
    // than the close, in allocation and GC: bench/mcp.ts). A request that threw leaves its server out.
    reply.status(response.status)
    response.headers.forEach((value, name) => void reply.header(name, value))
    const payload = response.body ? replies.splice(await response.text()) : undefined
    await closeQuietly(transport)
    if (idleServers.length < MAX_IDLE_SERVERS) idleServers.push(server)
    return reply.send(payload)
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
