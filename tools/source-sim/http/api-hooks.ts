// Owns what happens around every API call, in the platform's order: injected faults (delay,
// dropped connection, 500/503, QUERY_TIMEOUT), then the session check (401 INVALID_SESSION_ID),
// then the daily allowance (403 REQUEST_LIMIT_EXCEEDED); `Sforce-Limit-Info` on every response;
// and errors rendered as the platform's JSON arrays.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { OAuthError, SfError, sendSfError } from '../errors.ts'
import { orgOf, type SimContext } from './context.ts'
import type { Org } from '../org.ts'

const isApi = (url: string) => url.startsWith('/services/data/v') || url.startsWith('/services/data/latest')

export function installApiHooks(app: FastifyInstance, ctx: SimContext): void {
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!isApi(req.url)) return
    const decision = ctx.faults.decide(req.url, req.url.includes('/query'))
    if (ctx.faults.config.delayMs > 0 && ctx.faults.applies(req.url)) await new Promise((r) => setTimeout(r, ctx.faults.config.delayMs))
    if (decision === 'drop') {
      req.raw.socket.destroy()
      return reply.hijack()
    }
    if (decision === 'error') {
      const err = ctx.faults.config.errorStatus === 503
        ? new SfError(503, 'SERVER_UNAVAILABLE', 'Server is temporarily unavailable. Please try again later.')
        : new SfError(500, 'UNKNOWN_EXCEPTION', 'An unexpected error occurred. Please include this ErrorId if you contact support: 1964420434-12345 (-1146325521)')
      return sendSfError(reply, err)
    }
    if (decision === 'timeout') return sendSfError(reply, new SfError(400, 'QUERY_TIMEOUT', 'Your query request was running for too long.'))
    const org = orgOf(ctx, req)
    if (!ctx.allowances.get(org.orgId)!.spend()) {
      return sendSfError(reply, new SfError(403, 'REQUEST_LIMIT_EXCEEDED', 'TotalRequests Limit exceeded.'))
    }
  })

  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/services/data') || req.url.startsWith('/services/oauth2/userinfo')) {
      const org = (req as FastifyRequest & { simOrg?: Org }).simOrg ?? ctx.production
      reply.header('Sforce-Limit-Info', ctx.allowances.get(org.orgId)!.header())
    }
    return payload
  })

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof SfError) return sendSfError(reply, err)
    if (err instanceof OAuthError) return reply.code(err.status).send({ error: err.error, error_description: err.message })
    const e = err as Error & { statusCode?: number; code?: string }
    if (e.statusCode && e.statusCode < 500) {
      const code = e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'UNSUPPORTED_MEDIA_TYPE' : 'JSON_PARSER_ERROR'
      return sendSfError(reply, new SfError(e.statusCode, code, e.message))
    }
    req.log.error(err)
    return sendSfError(reply, new SfError(500, 'UNKNOWN_EXCEPTION', `An unexpected error occurred: ${e.message}`))
  })

  app.setNotFoundHandler((_req, reply) => sendSfError(reply, new SfError(404, 'NOT_FOUND', 'The requested resource does not exist')))
}
