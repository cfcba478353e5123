/** The resource indicator names this service or its /mcp endpoint (RFC 8707 §2). */
import { normalizeResource } from '../resource.ts'
import type { AuthorizeCheck } from './authorize-request.ts'

export const checkResource: AuthorizeCheck = (ctx) => {
  ctx.resource = normalizeResource(ctx.params.resource, ctx.resources)
}
