// Owns OAuth state: registered clients, one-time authorization codes (10 minutes, PKCE
// challenge kept), refresh tokens, and access tokens with an expiry so that jsforce's
// refresh-on-401 path is exercised. Access tokens look like the platform's (`<orgId>!<random>`).
import { createHash, randomBytes } from 'node:crypto'
import type { Org } from '../org.ts'

export interface Client { id: string; secret: string; redirectUris: string[] }
interface Code { org: Org; clientId: string; redirectUri: string; challenge: string | null; scope: string; expiresAt: number }
export interface Session { org: Org; clientId: string; scope: string; expiresAt: number; refreshToken: string | null }
interface Refresh { org: Org; clientId: string; scope: string }

const rand = (n: number) => randomBytes(n).toString('base64url')

export class Sessions {
  readonly clients = new Map<string, Client>()
  private readonly codes = new Map<string, Code>()
  private readonly access = new Map<string, Session>()
  private readonly refresh = new Map<string, Refresh>()
  ttlMs: number

  constructor(ttlMs: number) {
    this.ttlMs = ttlMs
  }

  /** Any loopback redirect URI is accepted (like a native/desktop app), plus the configured ones. */
  redirectAllowed(client: Client, uri: string): boolean {
    if (client.redirectUris.includes(uri)) return true
    try {
      const u = new URL(uri)
      return (u.protocol === 'http:' || u.protocol === 'https:') && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)
    } catch {
      return false
    }
  }

  issueCode(c: Omit<Code, 'expiresAt'>): string {
    const code = 'aPrx' + rand(24)
    this.codes.set(code, { ...c, expiresAt: Date.now() + 600_000 })
    return code
  }

  /** One-time: a code is gone after the first attempt, as on the platform. */
  takeCode(code: string): Code | 'expired' | null {
    const c = this.codes.get(code)
    if (!c) return null
    this.codes.delete(code)
    return c.expiresAt < Date.now() ? 'expired' : c
  }

  static challengeOf(verifier: string): string {
    return createHash('sha256').update(verifier).digest('base64url')
  }

  issueAccess(org: Org, clientId: string, scope: string, withRefresh: boolean, existingRefresh?: string): { access: string; refresh: string | null } {
    const access = `${org.orgId.slice(0, 15)}!AR${rand(60)}`
    let refreshToken: string | null = existingRefresh ?? null
    if (withRefresh && !refreshToken) {
      refreshToken = '5Aep' + rand(60)
      this.refresh.set(refreshToken, { org, clientId, scope })
    }
    this.access.set(access, { org, clientId, scope, expiresAt: Date.now() + this.ttlMs, refreshToken })
    return { access, refresh: withRefresh ? refreshToken : null }
  }

  refreshGrant(token: string): Refresh | undefined {
    return this.refresh.get(token)
  }

  session(token: string): Session | null {
    const s = this.access.get(token)
    if (!s) return null
    if (s.expiresAt <= Date.now()) {
      this.access.delete(token)
      return null
    }
    return s
  }

  /** Revoking a refresh token also ends the access tokens issued from it. */
  revoke(token: string): boolean {
    if (this.access.delete(token)) return true
    if (!this.refresh.delete(token)) return false
    for (const [k, s] of this.access) if (s.refreshToken === token) this.access.delete(k)
    return true
  }

  expireAll(): number {
    const n = this.access.size
    this.access.clear()
    return n
  }
}
