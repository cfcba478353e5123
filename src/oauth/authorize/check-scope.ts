/** Requested scopes are supported and allowed for the client; none requested means the client's own. */
import { grantableScopes, parseScope } from '../scopes.ts'
import type { AuthorizeCheck } from './authorize-request.ts'

export const checkScope: AuthorizeCheck = (ctx) => {
  ctx.scopes = grantableScopes(parseScope(ctx.params.scope), ctx.client!.scopes)
}
