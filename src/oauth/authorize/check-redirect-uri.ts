/**
 * The redirect URI is one the client registered: exact string match, except the port of loopback
 * URIs (RFC 9700 §4.1.3, RFC 8252 §7.3). Required when several are registered (RFC 6749 §3.1.2.3).
 * Failures are shown as a page, never redirected (RFC 6749 §4.1.2.1).
 */
import { InvalidClientRequest } from '../oauth.errors.ts'
import { redirectUriMatches } from '../redirect-uri.ts'
import type { AuthorizeCheck } from './authorize-request.ts'

export const checkRedirectUri: AuthorizeCheck = (ctx) => {
  const client = ctx.client!
  if (ctx.repeated.includes('redirect_uri')) throw new InvalidClientRequest('redirect_uri must appear once (RFC 6749 §3.1).')
  const requested = ctx.params.redirect_uri
  if (requested === undefined) {
    if (client.redirect_uris.length !== 1) throw new InvalidClientRequest('redirect_uri is required: this application registered several.')
    ctx.redirectUri = client.redirect_uris[0]
    ctx.redirectUriSent = false
    return
  }
  if (requested.includes('#')) throw new InvalidClientRequest('redirect_uri must not contain a fragment (RFC 6749 §3.1.2).')
  if (!client.redirect_uris.some((registered) => redirectUriMatches(requested, registered))) {
    throw new InvalidClientRequest('redirect_uri is not registered for this application.')
  }
  ctx.redirectUri = requested
  ctx.redirectUriSent = true
}
