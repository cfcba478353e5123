/**
 * Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3):
 * `client_secret_basic`, `client_secret_post`, or `none` for public clients (PKCE only), never two
 * methods in one request. Failures are counted, and a client or address that keeps failing is
 * throttled (OAuth 2.1 §2.4.1: brute-force protection).
 */
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { hitRateLimit, peekRateLimit } from '../../shared/rate-limit.ts'
import { findClient } from '../client.repository.ts'
import { secretMatches } from '../client.service.ts'
import { CLIENT_AUTH_FAILURES_PER_5_MINUTES } from '../oauth.defaults.ts'
import { InvalidClient, InvalidRequest, SlowDown } from '../oauth.errors.ts'

export interface AuthenticatedClient {
  client_id: string
  org_id: string | null
  scopes: string[]
  auth_method: string
  confidential: boolean
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  if (!header || !/^basic /i.test(header)) return null
  let decoded: string
  try {
    decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
  } catch {
    throw new InvalidRequest('Malformed Basic credentials.')
  }
  const colon = decoded.indexOf(':')
  if (colon < 0) throw new InvalidRequest('Malformed Basic credentials.')
  // RFC 6749 §2.3.1: id and secret are form-urlencoded inside the Basic value.
  let credentials: { id: string; secret: string }
  try {
    credentials = { id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) }
  } catch {
    throw new InvalidRequest('Malformed Basic credentials.')
  }
  // NUL cannot be stored or compared by PostgreSQL (a 500 otherwise); no client id or secret holds one.
  if (credentials.id.includes('\0') || credentials.secret.includes('\0')) throw new InvalidRequest('Malformed Basic credentials.')
  return credentials
}

const WINDOW = 300

export async function authenticateClient(db: Kysely<DB>, request: FastifyRequest, body: Record<string, string>, now: Date): Promise<AuthenticatedClient> {
  const basic = basicCredentials(request.headers.authorization)
  if (request.headers.authorization && !basic) throw new InvalidClient('Only the Basic scheme is accepted for client authentication.', false)
  if (basic && (body.client_secret !== undefined || (body.client_id !== undefined && body.client_id !== basic.id))) {
    throw new InvalidRequest('Use one client authentication method: Basic or the form fields, not both.')
  }
  const clientId = basic?.id ?? body.client_id
  if (!clientId) throw new InvalidClient('Client authentication is required (client_id).', false)
  const secret = basic?.secret ?? body.client_secret
  const usedBasic = basic !== null

  const failKeys = [`client-auth-fail:client:${clientId.slice(0, 200)}`, `client-auth-fail:ip:${request.ip}`]
  for (const key of failKeys) {
    const state = await peekRateLimit(db, key, CLIENT_AUTH_FAILURES_PER_5_MINUTES, WINDOW, now)
    if (!state.allowed) throw new SlowDown(state.retryAfterSeconds)
  }
  const fail = async (message: string): Promise<never> => {
    for (const key of failKeys) await hitRateLimit(db, key, CLIENT_AUTH_FAILURES_PER_5_MINUTES, WINDOW, now)
    throw new InvalidClient(message, usedBasic)
  }

  const client = clientId.length <= 2048 ? await findClient(db, clientId) : undefined
  if (!client || client.revoked_at) return fail('Unknown or revoked client.')
  if (client.auth_method === 'none') {
    // A public client proves nothing but PKCE; it must not send a secret it does not have.
    if (secret !== undefined && secret !== '') return fail('This client is public and has no secret.')
  } else if (secret === undefined || !secretMatches(client.secret_hash, secret)) {
    // Error bodies never echo what was sent.
    return fail('Client authentication failed.')
  }
  return { client_id: client.client_id, org_id: client.org_id, scopes: client.scopes, auth_method: client.auth_method, confidential: client.auth_method !== 'none' }
}
