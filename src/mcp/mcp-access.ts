/**
 * Who may talk to /mcp, decided before the SDK sees a request: the Origin rule (a present Origin
 * must be allowed: the transport spec's DNS-rebinding defence), the bearer token (bound to this
 * resource; no session cookies), and the scopes the JSON-RPC messages need, so a call beyond the
 * grant answers HTTP 403 insufficient_scope that hosts step up from (checklist A, C.37-C.42).
 */
import type { FastifyRequest } from 'fastify'
import type { Config } from '../config.ts'
import type { BearerVerifier } from '../http/auth.ts'
import { SUPPORTED_SCOPES } from '../oauth/index.ts'
import type { Scope } from '../shared/auth-context.ts'
import { Forbidden, Unauthenticated } from '../shared/errors.ts'
import { toolsByName } from './mcp-server.ts'
import { resourceScopes } from './resources.ts'

export function mcpResourceMetadataUrl(publicUrl: string): string {
  return `${publicUrl}/.well-known/oauth-protected-resource/mcp`
}

/** PUBLIC_URL's own origin plus MCP_ALLOWED_ORIGINS; requests without Origin (non-browser hosts) always pass. */
export function allowedOrigins(config: Config): ReadonlySet<string> {
  return new Set([new URL(config.publicUrl).origin, ...config.mcpAllowedOrigins])
}

export function checkOrigin(request: FastifyRequest, allowed: ReadonlySet<string>): void {
  const origin = request.headers.origin
  if (origin === undefined || allowed.has(origin)) return
  throw new Forbidden(`Requests from the origin ${origin.slice(0, 200)} may not use /mcp. An operator can allow a browser-based MCP host with MCP_ALLOWED_ORIGINS.`, 'origin_not_allowed')
}

/**
 * The 401 challenge. Its scope names everything the tools need: hosts register and ask with the
 * challenge's scope, and a dynamically registered client may later only ask within what it
 * registered, so a narrower first scope would leave it unable to step up (docs/mcp.md).
 */
export function mcpChallenge(publicUrl: string): string {
  return `Bearer resource_metadata="${mcpResourceMetadataUrl(publicUrl)}", scope="${SUPPORTED_SCOPES.join(' ')}"`
}

/** Bearer only: RFC 6750 §2.1 header, case-insensitive scheme; never a cookie or a query parameter. */
export function mcpAuthenticator(verify: BearerVerifier, publicUrl: string) {
  return async function authenticateMcp(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization
    if (header === undefined) {
      throw new Unauthenticated('Connect with an OAuth access token for this server: send it as "Authorization: Bearer <token>". The WWW-Authenticate header says where to get one.', {
        'www-authenticate': mcpChallenge(publicUrl),
      })
    }
    const match = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header)
    if (!match) {
      throw new Unauthenticated('The Authorization header must be "Bearer <token>".', { 'www-authenticate': `${mcpChallenge(publicUrl)}, error="invalid_request"` }, 'invalid_request')
    }
    request.auth = await verify(request, match[1])
  }
}

interface JsonRpcMessage {
  method?: unknown
  params?: { name?: unknown; arguments?: unknown; uri?: unknown }
}

/** The scopes the request's messages need: a tool's (for its arguments) or a record resource's. */
export function scopesNeeded(body: unknown): Scope[] {
  const messages = (Array.isArray(body) ? body : [body]) as (JsonRpcMessage | null)[]
  const needed = new Set<Scope>()
  for (const m of messages) {
    if (!m || typeof m !== 'object') continue
    if (m.method === 'tools/call') {
      const tool = typeof m.params?.name === 'string' ? toolsByName.get(m.params.name) : undefined
      const args = m.params?.arguments
      if (tool) for (const s of tool.scopes(args && typeof args === 'object' ? (args as Record<string, unknown>) : {})) needed.add(s)
    } else if (m.method === 'resources/read') {
      for (const s of resourceScopes(m.params?.uri)) needed.add(s)
    }
  }
  return [...needed]
}

export function checkScopes(request: FastifyRequest, publicUrl: string): void {
  const auth = request.auth!
  const needed = scopesNeeded(request.body)
  const missing = needed.filter((s) => !auth.scopes.has(s))
  if (missing.length === 0) return
  // Granted plus needed: SDK 1.x clients replace their scope with the challenge's (checklist A).
  const scope = [...new Set([...auth.scopes, ...needed])].join(' ')
  const description = `This call needs the scope ${missing.join(' and ')}`
  throw new Forbidden(`${description}; authorize again with the scope "${scope}".`, 'insufficient_scope', {
    'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${mcpResourceMetadataUrl(publicUrl)}", error_description="${description}"`,
  })
}
