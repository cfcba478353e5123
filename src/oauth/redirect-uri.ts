/**
 * Redirect URI rules: what may be registered, and how a requested URI matches a registered one.
 */
import { MAX_PARAM_LENGTH } from './oauth.defaults.ts'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

export function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname)
}

/**
 * Fixed callbacks of native MCP hosts whose private-use scheme is not in reverse-domain form (RFC
 * 8252 §7.1 only says SHOULD): Cursor registers this one dynamically and in static client setups.
 * Accepted by exact value only, so no other such scheme gets in; PKCE protects the code as for any
 * native app (RFC 8252 §8.1).
 */
export const KNOWN_NATIVE_CALLBACKS: ReadonlySet<string> = new Set(['cursor://anysphere.cursor-mcp/oauth/callback'])

/**
 * A URI a client may register: https; http only on a loopback host (RFC 8252 §7.3, RFC 9700 §2.1);
 * a private-use scheme in reverse-domain form for native apps (RFC 8252 §7.1). Never a fragment
 * (RFC 6749 §3.1.2) nor userinfo. Returns the problem, or null.
 */
export function redirectUriProblem(raw: string): string | null {
  if (raw.length > MAX_PARAM_LENGTH) return 'is too long'
  if (raw.includes('#')) return 'must not contain a fragment'
  if (/[\u0000-\u001f\u007f]/.test(raw)) return 'must not contain control characters'
  if (KNOWN_NATIVE_CALLBACKS.has(raw)) return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be an absolute URI'
  }
  if (url.username || url.password) return 'must not contain userinfo'
  if (url.protocol === 'https:') return url.hostname ? null : 'must name a host'
  if (url.protocol === 'http:') return isLoopback(url) ? null : 'must use https (http only for loopback addresses)'
  // RFC 8252 §7.1: private-use schemes are reverse domain names, e.g. com.example.app:/callback.
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol) && !/^(javascript|data|vbscript|file|blob):$/.test(url.protocol)) return null
  return 'must use https (http only for loopback addresses, or a reverse-domain private-use scheme)'
}

/**
 * Does the requested redirect URI match a registered one? Simple string comparison (RFC 3986
 * §6.2.1; RFC 9700 §4.1.3), except that for loopback http URIs the port may differ (RFC 8252 §7.3).
 */
export function redirectUriMatches(requested: string, registered: string): boolean {
  if (requested === registered) return true
  let req: URL
  let reg: URL
  try {
    req = new URL(requested)
    reg = new URL(registered)
  } catch {
    return false
  }
  if (req.protocol !== 'http:' || reg.protocol !== 'http:' || !isLoopback(reg) || req.hostname !== reg.hostname) return false
  // Compare everything but the port, on the raw strings so no normalisation sneaks in.
  const withoutPort = (raw: string, url: URL) => raw.replace(`${url.hostname}${url.port ? `:${url.port}` : ''}`, url.hostname)
  return withoutPort(requested, req) === withoutPort(registered, reg)
}
