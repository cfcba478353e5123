/**
 * Discovery documents: authorization server metadata (RFC 8414) and protected resource metadata
 * (RFC 9728) for the API and for /mcp. The issuer is byte-identical to `authorization_servers[0]`.
 * Unknown well-known paths answer 404 JSON, never the app's HTML.
 */
import type { FastifyInstance } from 'fastify'
import { SUPPORTED_SCOPES } from './oauth.defaults.ts'
import { resourcesOf } from './resource.ts'

export function authorizationServerMetadata(issuer: string, options: { registration: boolean; metadataDocuments: boolean }) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/api/oauth/token`,
    ...(options.registration ? { registration_endpoint: `${issuer}/api/oauth/register` } : {}),
    revocation_endpoint: `${issuer}/api/oauth/revoke`,
    introspection_endpoint: `${issuer}/api/oauth/introspect`,
    scopes_supported: [...SUPPORTED_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: options.metadataDocuments,
    service_documentation: `${issuer}/docs`,
  }
}

export function protectedResourceMetadata(resource: string, issuer: string) {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: [...SUPPORTED_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Cairn CRM',
    resource_documentation: `${issuer}/docs`,
  }
}

export async function discoveryRoutes(app: FastifyInstance): Promise<void> {
  const issuer = app.config.publicUrl
  const resources = resourcesOf(issuer)
  const json = (body: unknown) => JSON.stringify(body)
  const send = (reply: import('fastify').FastifyReply, body: unknown) => reply.type('application/json').header('cache-control', 'public, max-age=300').send(json(body))

  app.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, async (_req, reply) =>
    send(reply, authorizationServerMetadata(issuer, { registration: app.config.oauthDynamicRegistration, metadataDocuments: app.config.oauthMetadataDocuments })),
  )
  app.get('/.well-known/oauth-protected-resource', { schema: { hide: true } }, async (_req, reply) => send(reply, protectedResourceMetadata(resources.api, issuer)))
  app.get('/.well-known/oauth-protected-resource/mcp', { schema: { hide: true } }, async (_req, reply) => send(reply, protectedResourceMetadata(resources.mcp, issuer)))
  app.get('/.well-known/*', { schema: { hide: true } }, async (request, reply) =>
    reply.status(404).type('application/json').send(json({ error: 'not_found', error_description: `${request.url.split('?')[0]} is not published here.` })),
  )
}
