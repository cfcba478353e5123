/**
 * Documents the rate limits in the OpenAPI document: the RateLimit-Policy and RateLimit fields on
 * every answer of every operation under /api/v1, and the 429 `rate_limited` answer with
 * Retry-After. Added to the generated document, as the idempotency parameters are, so no route can
 * miss it.
 */

import { operationsOf } from '../openapi-operations.ts'

type Json = Record<string, any>

const METHODS = ['get', 'post', 'patch', 'put', 'delete']

const HEADERS = {
  RateLimitPolicy: {
    description:
      'The quotas (draft-ietf-httpapi-ratelimit-headers-11 §3): `"org";q=<requests>;w=<seconds>, "client";q=<requests>;w=<seconds>`. Sent while rate limits are on. See "Rate limits" in docs/api.md.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of each quota in the current window and the seconds until it ends (draft §4): `"org";r=<requests>;t=<seconds>, "client";r=<requests>;t=<seconds>`.',
    schema: { type: 'string' },
  },
  RetryAfter: { description: 'Seconds until the window ends and the quota is restored.', schema: { type: 'integer', minimum: 1 } },
}

const FIELDS = { 'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' }, RateLimit: { $ref: '#/components/headers/RateLimit' } }

export function documentRateLimits(document: Json): Json {
  document.components ??= {}
  document.components.headers = { ...document.components.headers, ...HEADERS }
  for (const operation of operationsOf(document, METHODS, '/api/v1/')) {
    operation.responses ??= {}
    for (const [status, response] of Object.entries<Json>(operation.responses)) {
      if (/^\d{3}$/.test(status) && status !== '401') response.headers = { ...response.headers, ...FIELDS }
    }
    // The problem schema the route's 400 documents, under the media type the 429 is sent with.
    const problem = Object.values<Json>(operation.responses['400']?.content ?? {})[0]
    operation.responses['429'] ??= {
      description: '`rate_limited`: the organization or the API client has used its quota of the current window.',
      headers: { ...FIELDS, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
      ...(problem ? { content: { 'application/problem+json': problem } } : {}),
    }
  }
  return document
}
