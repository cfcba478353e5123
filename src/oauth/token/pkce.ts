/** PKCE verification (RFC 7636 §4.1, §4.6): 43-128 unreserved characters, S256 of it equals the challenge. */
import crypto from 'node:crypto'
import { constantTimeEqual } from '../../shared/ids.ts'
import { InvalidGrant, InvalidRequest } from '../oauth.errors.ts'

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/

export function checkCodeVerifier(verifier: string | undefined, challenge: string): void {
  if (verifier === undefined || verifier === '') throw new InvalidGrant('code_verifier is required (PKCE).')
  if (!VERIFIER.test(verifier)) throw new InvalidRequest('code_verifier must be 43-128 unreserved characters (RFC 7636 §4.1).')
  const computed = crypto.createHash('sha256').update(verifier).digest('base64url')
  if (!constantTimeEqual(computed, challenge)) throw new InvalidGrant('code_verifier does not match the code_challenge.')
}
