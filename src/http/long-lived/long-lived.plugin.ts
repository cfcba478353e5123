/**
 * `app.longLived.open(request, reply, kind)`: the door every long-lived response goes through. It
 * takes a slot under the caps (per organization and per client across all processes, per process
 * here) or refuses with a problem before any byte is sent, then guards the response
 * (long-lived-response.ts). The process renews its open slots in one statement and ends every
 * response when it shuts down.
 */
import fp from 'fastify-plugin'
import type { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { StreamLimits } from '../../config.ts'
import { ProblemError } from '../../shared/errors.ts'
import { uuidv7 } from '../../shared/ids.ts'
import { LongLivedResponse, TICK_MS, type AccessRecheck, type LongLivedOptions } from './long-lived-response.ts'
import { releaseSlot, renewSlots, takeSlot } from './stream-slots.repository.ts'

declare module 'fastify' {
  interface FastifyInstance {
    longLived: LongLivedResponses
  }
}

export interface LongLivedResponses {
  /** Takes a slot for the caller and guards the response; call before any byte of it is sent. */
  open(request: FastifyRequest, reply: FastifyReply, kind: string, options?: LongLivedOptions): Promise<LongLivedResponse>
  /** A download: `body` sent through Fastify with the same guard (the pipe keeps back-pressure). */
  download(request: FastifyRequest, reply: FastifyReply, kind: string, body: Readable, options?: Pick<LongLivedOptions, 'admin'>): Promise<FastifyReply>
}

/** A slot lives this long without renewal: a process that died frees its slots within it. */
const SLOT_TTL_SECONDS = 30
const RENEW_EVERY_MS = 10_000
/** A slot frees when another response ends: a client asked to wait should try again after about this. */
const RETRY_AFTER_SECONDS = 10

export class TooManyStreams extends ProblemError {
  constructor(detail: string, status = 429) {
    super(status, 'too_many_streams', 'Too many open streams', detail, undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) })
  }
}

export default fp(
  async (app, opts: { limits: StreamLimits; recheck: AccessRecheck }) => {
    const { limits } = opts
    const open = new Set<LongLivedResponse>()

    const renewal = setInterval(() => {
      const slots = [...open].map((r) => r.slot)
      renewSlots(app.db, slots, SLOT_TTL_SECONDS).catch((err) => app.log.warn({ err }, 'renewing stream slots failed; they lapse unless the next renewal succeeds'))
    }, RENEW_EVERY_MS).unref()

    app.addHook('onClose', async () => {
      clearInterval(renewal)
      for (const response of [...open]) response.end('shutdown')
    })

    const longLived: LongLivedResponses = {
      async download(request, reply, kind, body, options = {}) {
        try {
          await longLived.open(request, reply, kind, { ...options, source: body })
        } catch (err) {
          body.destroy()
          throw err
        }
        return reply.send(body)
      },
      async open(request, reply, kind, options = {}) {
        const auth = request.auth!
        if (open.size >= limits.perProcess) {
          throw new TooManyStreams(`This service process holds ${open.size} open streams, the most it allows (STREAMS_PER_PROCESS). Retry in a few seconds.`, 503)
        }
        const holder = auth.clientId ? `client:${auth.clientId}` : `user:${auth.userId}`
        const slot = { orgId: auth.orgId, id: uuidv7() }
        const refused = await takeSlot(app.db, { ...slot, holder, kind }, limits, SLOT_TTL_SECONDS)
        if (refused === 'org') throw new TooManyStreams(`This organization has ${limits.perOrg} streams and downloads open, the most allowed at once. Close one, or retry later.`)
        if (refused === 'client') {
          const who = auth.clientId ? 'This API client' : 'You'
          throw new TooManyStreams(`${who} already ${auth.clientId ? 'has' : 'have'} ${limits.perClient} streams and downloads open in this organization, the most allowed at once. Close one, or retry later.`)
        }
        const response = new LongLivedResponse(request, reply, slot, {
          stallMs: limits.stallSeconds * 1000,
          recheckEveryTicks: Math.max(1, Math.round((limits.recheckSeconds * 1000) / TICK_MS)),
          recheck: opts.recheck,
          debug: (msg, extra) => request.log.debug(extra ?? {}, msg),
          onEnd(ended) {
            open.delete(ended)
            releaseSlot(app.db, ended.slot.orgId, ended.slot.id).catch((err) => request.log.debug({ err }, 'releasing a stream slot failed; it lapses by itself'))
          },
        }, options)
        open.add(response)
        return response
      },
    }
    app.decorate('longLived', longLived)
  },
  { name: 'long-lived', dependencies: ['database'] },
)
