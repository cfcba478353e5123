/** OpenAPI 3.1 generated from the route schemas, at /api/v1/openapi.json, and a reference at /docs. */
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { documentIdempotency } from '../idempotency/idempotency.openapi.ts'
import { documentProblemMediaType, nameComponentSchemas } from '../openapi-components.ts'
import { documentRateLimits } from '../rate-limit/rate-limit.openapi.ts'

export default fp(
  async (app, opts: { publicUrl: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Cairn CRM API',
          version: '1.0.0',
          description:
            'Multi-tenant CRM records, webhooks and migration. Lists are keyset-paged (`limit` 1-200, `cursor` = `next_cursor`). Errors are RFC 9457 problem details with a stable `code`.',
        },
        servers: [{ url: opts.publicUrl }],
        components: {
          securitySchemes: {
            oauth2: {
              type: 'oauth2',
              flows: {
                authorizationCode: {
                  authorizationUrl: `${opts.publicUrl}/oauth/authorize`,
                  tokenUrl: `${opts.publicUrl}/api/oauth/token`,
                  scopes: { 'crm:read': 'Read CRM records', 'crm:write': 'Change CRM records', 'erp:read': 'Read products and amounts' },
                },
              },
            },
            session: { type: 'apiKey', in: 'cookie', name: 'cairn_session' },
          },
        },
        security: [{ oauth2: [] }, { session: [] }],
      },
      hideUntagged: true,
      // This plugin generates OpenAPI 3.1 only; the Swagger 2 branch exists for the type.
      transformObject: (doc) => documentProblemMediaType(documentRateLimits(documentIdempotency(nameComponentSchemas('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject)))),
    })
    await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } })
    app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  },
  { name: 'openapi' },
)
