/** `state` is echoed verbatim and not required (PKCE covers CSRF, RFC 9700 §2.1); only its size is bounded. */
import { InvalidRequest } from '../oauth.errors.ts'
import { MAX_STATE_LENGTH } from '../oauth.defaults.ts'
import type { AuthorizeCheck } from './authorize-request.ts'

export const checkState: AuthorizeCheck = (ctx) => {
  if (ctx.params.state !== undefined && ctx.params.state.length > MAX_STATE_LENGTH) throw new InvalidRequest(`state must be at most ${MAX_STATE_LENGTH} characters.`)
}
