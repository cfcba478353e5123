/**
 * PKCE is required for every client, S256 only (RFC 7636 §4.3; RFC 9700 §2.1.1). A missing method
 * would default to `plain`, so it is an error too. An S256 challenge is the base64url of a SHA-256
 * digest: exactly 43 characters.
 */
import { InvalidRequest } from '../oauth.errors.ts'
import type { AuthorizeCheck } from './authorize-request.ts'

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

export const checkPkce: AuthorizeCheck = (ctx) => {
  const { code_challenge: challenge, code_challenge_method: method } = ctx.params
  if (!challenge) throw new InvalidRequest('code_challenge is required (PKCE, RFC 7636).')
  if (method !== 'S256') throw new InvalidRequest('code_challenge_method must be S256.')
  if (!S256_CHALLENGE.test(challenge)) throw new InvalidRequest('code_challenge must be 43 base64url characters (the S256 of the verifier).')
  ctx.codeChallenge = challenge
}
