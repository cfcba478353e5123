/** Scope strings (RFC 6749 §3.3): space-delimited, case-sensitive, from the supported set. */
import { SUPPORTED_SCOPES } from './oauth.defaults.ts'
import { InvalidScope } from './oauth.errors.ts'

export function parseScope(raw: string | undefined): string[] | null {
  if (raw === undefined) return null
  const parts = raw.split(' ').filter((s) => s !== '')
  return [...new Set(parts)]
}

/**
 * The scopes to grant: those requested, each supported and allowed for the client; without a
 * `scope` parameter, the client's registered scopes (RFC 6749 §3.3 default-scope policy).
 */
export function grantableScopes(requested: string[] | null, allowed: string[]): string[] {
  if (requested === null || requested.length === 0) return [...allowed]
  const unknown = requested.filter((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s))
  if (unknown.length) throw new InvalidScope(`unknown scope ${unknown.join(', ')}; supported: ${SUPPORTED_SCOPES.join(' ')}`)
  const notAllowed = requested.filter((s) => !allowed.includes(s))
  if (notAllowed.length) throw new InvalidScope(`scope ${notAllowed.join(', ')} is not allowed for this client`)
  return requested
}

export function validScopeList(scopes: unknown): scopes is string[] {
  return Array.isArray(scopes) && scopes.length > 0 && scopes.every((s) => (SUPPORTED_SCOPES as readonly string[]).includes(s as string))
}
