/**
 * The /mcp endpoint (Streamable HTTP, stateless): POST carries JSON-RPC to a fresh McpServer and
 * StreamableHTTPServerTransport per request, handed the raw Node request and response plus the body
 * Fastify parsed. GET and DELETE answer 405: there is no session and no server-initiated stream.
 * Origin, bearer token and scopes are checked first (mcp-access.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { makeBearerVerifier, resourcesOf } from '../oauth/index.ts'
import type { Clock } from '../shared/clock.ts'
import { allowedOrigins, checkOrigin, checkScopes, mcpAuthenticator, mcpResourceMetadataUrl } from './mcp-access.ts'
import { buildMcpServer } from './mcp-server.ts'
import pkg from '../../package.json' with { type: 'json' }

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.status(status).type('application/json').send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }))
}

export async function mcpRoutes(app: FastifyInstance, opts: { clock: Clock }): Promise<void> {
  const { publicUrl } = app.config
  const verify = makeBearerVerifier(app.db, opts.clock, resourcesOf(publicUrl), 'mcp', mcpResourceMetadataUrl(publicUrl))
  const authenticate = mcpAuthenticator(verify, publicUrl)
  const origins = allowedOrigins(app.config)

  // Scoped to this plugin: only /mcp passes through these (CORS preflight is answered before them).
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    checkOrigin(request, origins)
    await authenticate(request)
  })

  app.post('/mcp', { schema: { hide: true }, preHandler: async (request) => checkScopes(request, publicUrl) }, async (request, reply) => {
    const server = buildMcpServer({ db: app.db, auth: request.auth!, log: request.log }, pkg.version)
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    // The transport writes to the raw response: carry over what hooks set on the reply (CORS, request id).
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value as string)
    reply.raw.setHeader('x-request-id', request.id)
    reply.hijack()
    reply.raw.on('close', () => {
      void transport.close()
      void server.close()
    })
    try {
      await server.connect(transport)
      await transport.handleRequest(request.raw, reply.raw, request.body)
    } catch (err) {
      request.log.error({ err }, 'MCP request failed')
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' })
      if (!reply.raw.writableEnded) reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }))
    }
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
