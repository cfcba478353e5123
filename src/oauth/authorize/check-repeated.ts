/** Parameters must not be repeated (RFC 6749 §3.1); client_id and redirect_uri were checked before. */
import { InvalidRequest } from '../oauth.errors.ts'
import type { AuthorizeCheck } from './authorize-request.ts'

export const checkRepeatedParams: AuthorizeCheck = (ctx) => {
  if (ctx.repeated.length) throw new InvalidRequest(`${ctx.repeated.join(', ')} must appear only once.`)
}
