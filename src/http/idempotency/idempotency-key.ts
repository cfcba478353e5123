/**
 * What identifies an idempotent retry: the Idempotency-Key header's value, the caller it belongs
 * to, and the fingerprint of the request it was first sent with (docs/api.md, Idempotent retries).
 */
import crypto from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { AuthContext } from '../../shared/auth-context.ts'
import { ProblemError } from '../../shared/errors.ts'

export const IDEMPOTENCY_HEADER = 'idempotency-key'
export const REPLAYED_HEADER = 'idempotent-replayed'
/** Methods whose requests honour the header; GET, HEAD and OPTIONS ignore it (they change nothing). */
export const KEYED_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

// 1-255 visible ASCII characters, Stripe's limit. A client following the IETF draft sends an
// RFC 8941 String (draft-ietf-httpapi-idempotency-key-header §2.1), quotes included: the quotes
// are then part of the key, which is harmless because a retry repeats the value as it was sent.
const KEY_SYNTAX = /^[\x21-\x7e]{1,255}$/

/** The request's key, null without the header; a 400 invalid_idempotency_key when malformed. */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const value = request.headers[IDEMPOTENCY_HEADER]
  if (value === undefined) return null
  // Node joins a repeated header with ", ", which the syntax refuses: the key must be sent once.
  if (typeof value !== 'string' || !KEY_SYNTAX.test(value)) {
    throw new ProblemError(400, 'invalid_idempotency_key', 'Invalid Idempotency-Key', 'The Idempotency-Key header must be sent once, with 1 to 255 visible ASCII characters (no spaces); a UUID is a good key.')
  }
  return value
}

/** Keys of different callers of one organization never meet: two integrations may pick the same key. */
export function principalOf(auth: AuthContext): string {
  return auth.via === 'bearer' ? `client:${auth.clientId ?? ''}:user:${auth.userId ?? ''}` : `user:${auth.userId ?? ''}`
}

/**
 * JSON canonicalization (RFC 8785): object members sorted by their UTF-16 code units (§3.2.3),
 * numbers and strings as ECMAScript serializes them (§3.2.2), which JSON.stringify does. Recursive,
 * and bounded: bodies nest at most MAX_JSON_DEPTH levels (http/body-parsers.ts).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? ''
}

/**
 * Method, path with query, and the body as the handler will see it: a retry whose JSON differs only
 * in member order or whitespace is the same request (draft-ietf-httpapi-idempotency-key-header §2.4).
 */
export function fingerprint(method: string, url: string, body: unknown): string {
  return crypto.createHash('sha256').update(`${method} ${url}\n${canonicalJson(body)}`).digest('hex')
}

export const fingerprintOf = (request: FastifyRequest): string => fingerprint(request.method, request.url, request.body)
