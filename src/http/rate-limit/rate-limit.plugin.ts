/**
 * Rate limits of /api/v1 and /mcp (docs/api.md, Rate limits): a fixed-window quota per organization
 * and per API client within it, shared by every service process on one database through leases
 * (budget.ts), and the RateLimit-Policy and RateLimit fields on every authenticated answer there.
 * Over a quota: 429 `rate_limited` with Retry-After. Runs as a preParsing hook: after the
 * authentication of both areas (onRequest), before a refused request's body is read. Requests without
 * `request.auth` (pages, OAuth endpoints, failed authentication) are not counted here; the token
 * endpoint has its own limit (shared/rate-limit.ts). A route that authenticates in its own statement
 * (a bearer list, records/list-with-bearer.ts) calls `app.admitRequest` once it knows the caller,
 * at the same point of its answer: after the scope check, before validation and the page.
 */
import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify'
import type { AuthContext } from '../../shared/auth-context.ts'
import type { Clock } from '../../shared/clock.ts'
import { ProblemError } from '../../shared/errors.ts'
import { acquire, Share, type OrgShares, type TakeLease } from './budget.ts'
import { limitField, policyField } from './headers.ts'
import { takeLease } from './lease.repository.ts'

/** The client budget of browser sessions: the organization's own web app (not a valid client id). */
const WEB_APP = ''

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts an authenticated request (429 when over a quota); for routes that set `request.auth` themselves. */
    admitRequest(request: FastifyRequest, reply: FastifyReply): Promise<void>
  }
}

export default fp(
  async (app, opts: { clock: Clock }) => {
    const { config } = app
    // Off: no fields and no limit (docs/api.md says so), so nothing advertises a quota not enforced.
    if (!config.rateLimitEnabled) {
      app.decorate('admitRequest', async () => {})
      return
    }
    const windowMs = config.rateLimitWindowSeconds * 1000
    const policy = policyField(config.rateLimitPerOrg, config.rateLimitPerClient, config.rateLimitWindowSeconds)
    const take: TakeLease = (budget, windowStart, limit, batch) => takeLease(app.db, budget, windowStart, limit, batch)
    const orgs = new Map<string, OrgShares>()
    let currentWindow = -1

    /** A new window: forget budgets nobody used in the previous one, so the map stays as big as the traffic. */
    function startWindow(windowStart: number): void {
      const previous = currentWindow
      currentWindow = windowStart
      for (const [orgId, shares] of orgs) {
        for (const [clientId, share] of shares.clients) if (share.windowStart < previous) shares.clients.delete(clientId)
        if (shares.org.windowStart < previous) orgs.delete(orgId)
      }
    }

    function sharesOf(auth: AuthContext): [Share, Share] {
      let shares = orgs.get(auth.orgId)
      if (shares === undefined) {
        shares = { org: new Share(`org:${auth.orgId}`, config.rateLimitPerOrg), clients: new Map() }
        orgs.set(auth.orgId, shares)
      }
      const clientId = auth.clientId ?? WEB_APP
      let client = shares.clients.get(clientId)
      if (client === undefined) {
        client = new Share(clientId === WEB_APP ? `web:${auth.orgId}` : `client:${auth.orgId}:${clientId}`, config.rateLimitPerClient)
        shares.clients.set(clientId, client)
      }
      return [shares.org, client]
    }

    function prefetch(share: Share): void {
      share.refill(take).catch((err) => app.log.warn({ err, budget: share.budget }, 'taking a rate-limit lease failed'))
    }

    /** After a unit of both was spent: the fields, and the next leases taken before they are needed. */
    function admitted(reply: FastifyReply, org: Share, client: Share, seconds: number): void {
      reply.header('ratelimit-policy', policy)
      reply.header('ratelimit', limitField(org.remaining(), client.remaining(), seconds))
      if (org.shouldPrefetch()) prefetch(org)
      if (client.shouldPrefetch()) prefetch(client)
    }

    function refusal(refusing: Share, org: Share, client: Share, seconds: number): ProblemError {
      const who = refusing === org ? 'This organization' : client.budget.startsWith('web:') ? "This organization's web app" : 'This API client'
      // draft-ietf-httpapi-ratelimit-headers-11 §6: Retry-After no earlier than the end of the effective window (t).
      return new ProblemError(
        429,
        'rate_limited',
        'Too many requests',
        `${who} has used its ${refusing.limit} requests of this ${config.rateLimitWindowSeconds}-second window (policy "${refusing === org ? 'org' : 'client'}"). Retry after ${seconds} seconds.`,
        undefined,
        { 'ratelimit-policy': policy, ratelimit: limitField(org.remaining(), client.remaining(), seconds), 'retry-after': String(seconds) },
      )
    }

    /** Callbacks, not a promise, on the hot path: most requests are admitted synchronously. */
    function limit(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
      const auth = request.auth
      if (auth === null) return done()
      const nowMs = opts.clock.now().getTime()
      const windowStart = nowMs - (nowMs % windowMs)
      if (windowStart !== currentWindow) startWindow(windowStart)
      const [org, client] = sharesOf(auth)
      org.enter(windowStart)
      client.enter(windowStart)
      // Whole seconds to the window's end, at least 1 (nowMs is inside the window).
      const seconds = Math.ceil((windowStart + windowMs - nowMs) / 1000)
      if (org.tokens > 0 && client.tokens > 0) {
        org.tokens--
        client.tokens--
        admitted(reply, org, client, seconds)
        return done()
      }
      acquire(org, client, take).then(
        (refusing) => {
          if (refusing) return done(refusal(refusing, org, client, seconds))
          admitted(reply, org, client, seconds)
          done()
        },
        (err) => {
          // Fail open: a database that cannot lease will fail the request itself if it is down for good.
          request.log.warn({ err }, 'taking a rate-limit lease failed; request admitted')
          done()
        },
      )
    }
    const limitRequest: preParsingHookHandler = (request, reply, payload, done) => limit(request, reply, (err) => done(err ?? null, payload))
    app.addHook('preParsing', limitRequest)
    app.decorate('admitRequest', (request: FastifyRequest, reply: FastifyReply) => new Promise<void>((resolve, reject) => limit(request, reply, (err) => (err ? reject(err) : resolve()))))
  },
  { name: 'rate-limit', dependencies: ['database'] },
)
