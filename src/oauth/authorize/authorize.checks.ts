/**
 * The checks of an authorization request, in order. The first two decide whether errors may be
 * redirected at all: until the client and its redirect URI are verified, errors are shown as a page.
 */
import type { AuthorizeCheck, AuthorizeContext } from './authorize-request.ts'
import { checkClient } from './check-client.ts'
import { checkRedirectUri } from './check-redirect-uri.ts'
import { checkRepeatedParams } from './check-repeated.ts'
import { checkResponseType } from './check-response-type.ts'
import { checkPkce } from './check-pkce.ts'
import { checkScope } from './check-scope.ts'
import { checkResource } from './check-resource.ts'
import { checkState } from './check-state.ts'

export const authorizeChecks: AuthorizeCheck[] = [
  checkClient, // client_id known, not revoked (page)
  checkRedirectUri, // exact match; loopback any port, RFC 8252 §7.3 (page)
  checkState, // bounded, echoed verbatim
  checkRepeatedParams, // RFC 6749 §3.1
  checkResponseType, // code only
  checkPkce, // S256 only, RFC 7636 §4.3, RFC 9700 §2.1.1
  checkScope, // RFC 6749 §3.3
  checkResource, // RFC 8707
]

export async function runAuthorizeChecks(ctx: AuthorizeContext): Promise<void> {
  for (const check of authorizeChecks) await check(ctx)
}
