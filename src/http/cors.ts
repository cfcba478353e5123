/**
 * CORS, only where browsers of other origins belong: the API (bearer tokens, no cookies), the
 * token-side OAuth endpoints, discovery and MCP. Never on /oauth/authorize or pages (RFC 9700 §2.6).
 * A preflight that lacks what the Fetch standard's CORS preflight always carries (`Origin` and
 * `Access-Control-Request-Method`) is answered with a problem (`400 invalid_preflight`) here,
 * because @fastify/cors' strict mode would answer it in plain text.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import cors, { type FastifyCorsOptions } from '@fastify/cors'
import { ProblemError } from '../shared/errors.ts'
import { sendProblem } from './problem-handler.ts'

function crossOriginOpen(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0]
  return path.startsWith('/api/') || path.startsWith('/.well-known/') || path === '/mcp'
}

const OPEN: FastifyCorsOptions = {
  origin: '*',
  credentials: false,
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  allowedHeaders: ['authorization', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id', 'x-request-id', 'idempotency-key'],
  exposedHeaders: ['www-authenticate', 'x-request-id', 'location', 'retry-after', 'mcp-session-id', 'idempotent-replayed', 'ratelimit', 'ratelimit-policy'],
  maxAge: 600,
  strictPreflight: false,
}

export async function registerCors(app: FastifyInstance): Promise<void> {
  // Registered before the plugin, so it runs first among the onRequest hooks.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS' || !crossOriginOpen(request)) return
    const missing = ['origin', 'access-control-request-method'].filter((h) => !request.headers[h])
    if (missing.length === 0) return
    return sendProblem(
      reply,
      new ProblemError(400, 'invalid_preflight', 'Invalid preflight request', `A CORS preflight (OPTIONS) must carry ${missing.map((h) => `\`${h}\``).join(' and ')}; other OPTIONS requests are not served.`),
    )
  })
  await app.register(cors, {
    delegator: (req, cb) => cb(null, crossOriginOpen(req) ? OPEN : { origin: false }),
  })
}
