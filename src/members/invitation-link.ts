/**
 * The invitation link: `<PUBLIC_URL>/invite/<invitation id>.<secret>`. The id finds the invitation;
 * the secret (256 random bits) proves the link was handed out, and only its SHA-256 is stored and
 * compared, in constant time. The secret never reaches a log (withoutInvitationSecret).
 */
import { constantTimeEqual, isUuid, randomSecret, sha256 } from '../shared/ids.ts'

export const INVITATION_PATH = '/invite'
/** Seven days, as GitHub and Stripe give. */
export const INVITATION_LIFETIME_SECONDS = 7 * 24 * 3600

export function newInvitationSecret(): string {
  return randomSecret(32)
}

export function invitationUrl(publicUrl: string, id: string, secret: string): string {
  return `${publicUrl}${INVITATION_PATH}/${id}.${secret}`
}

export function parseInvitationToken(token: string): { id: string; secret: string } | null {
  const dot = token.indexOf('.')
  if (dot !== 36) return null
  const id = token.slice(0, dot)
  const secret = token.slice(dot + 1)
  if (!isUuid(id) || !/^[A-Za-z0-9_-]{20,100}$/.test(secret)) return null
  return { id: id.toLowerCase(), secret }
}

export function secretMatches(storedHash: Uint8Array, secret: string): boolean {
  // PGlite answers bytea as a Uint8Array, `pg` as a Buffer: compare their hex either way.
  return constantTimeEqual(Buffer.from(storedHash).toString('hex'), sha256(secret).toString('hex'))
}

/** A request URL fit for the log: the invitation secret replaced. */
export function withoutInvitationSecret(url: string): string {
  return url.replace(/(\/invite\/[^/.?#]*)\.[^/?#]*/, '$1.[redacted]')
}
