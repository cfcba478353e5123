/**
 * Read-your-writes across processes when reads may go to streaming replicas (DATABASE_READ_URLS;
 * without them this plugin does nothing): each request runs in a read scope (src/db/read-scope.ts)
 * that names its credential, and an unsafe request that wrote records, before its answer leaves,
 * the primary's WAL position for that credential (src/db/read-replicas.ts). Its next read, in any
 * process, goes to a replica only once the replica has replayed that far.
 *
 * The scope opens at preHandler, after the body is parsed: a body's stream events would otherwise
 * run outside it.
 */
import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { readScopes, type ReadScope } from '../../db/read-scope.ts'
import { sha256 } from '../../shared/ids.ts'

declare module 'fastify' {
  interface FastifyRequest {
    readScope: ReadScope | null
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The credential by hash: a bearer token (REST or MCP) or a session, whichever authenticated the request. */
function credentialKey(request: FastifyRequest): string | null {
  const bearer = /^bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
  if (bearer) return `b:${sha256(bearer).toString('hex')}`
  if (request.credential?.kind === 'session') return `s:${sha256(request.credential.token).toString('hex')}`
  return null
}

export default fp(
  async (app) => {
    const replicas = app.database.replicas
    if (!replicas) return
    app.decorateRequest('readScope', null)
    app.housekeeping.add('read positions', (now) => replicas.prunePositions(now))
    app.addHook('preHandler', (request, _reply, done) => {
      let key: string | null | undefined
      const scope: ReadScope = {
        credential: () => (key === undefined ? (key = credentialKey(request)) : key),
        safe: SAFE_METHODS.has(request.method),
        wrote: false,
      }
      request.readScope = scope
      readScopes.run(scope, done)
    })
    app.addHook('onSend', async (request) => {
      const scope = request.readScope
      if (!scope?.wrote) return
      const credential = scope.credential()
      if (credential === null) return
      try {
        await replicas.recordWrite(credential)
      } catch (err) {
        // The write itself committed (or failed) already: its answer stands. Only when the primary
        // is gone can this fail, and then the switch to a new primary raises the floor every
        // replica must pass (src/db/read-replicas.ts), which covers this position too.
        request.log.warn({ err }, 'could not record the write position for read-your-writes')
      }
    })
  },
  { name: 'read-routing', dependencies: ['database', 'housekeeping'] },
)
