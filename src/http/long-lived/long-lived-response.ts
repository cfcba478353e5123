/**
 * One long-lived response (an SSE stream, a streamed download) and the three rules every one of
 * them keeps (docs/api.md, Long-lived responses):
 * - back-pressure: `write` resolves only when the socket can take more, so a reader that stops
 *   reading holds at most the socket's high-water mark plus one chunk in this process;
 * - a stall limit: a reader that takes nothing for `stallSeconds` is disconnected;
 * - access that ends ends the response: every `recheckSeconds` the request's credential is checked
 *   again (revoked token, revoked client, removed member, expired session, lost admin role), and a
 *   response whose access ended closes within that interval.
 * It also holds the response's slot (stream-slots.repository.ts) until it ends.
 */
import { once } from 'node:events'
import type { OutgoingHttpHeaders } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AuthContext } from '../../shared/auth-context.ts'

/** Why a response ended. */
export type StreamEnd = 'finished' | 'client_closed' | 'stalled' | 'access_ended' | 'shutdown'

/** The credential of a request checked again; null when it no longer grants access. */
export type AccessRecheck = (request: FastifyRequest) => Promise<AuthContext | null>

export interface LongLivedOptions {
  /** The role the route requires; a person who loses it loses the stream too. */
  admin?: boolean
  /** Text written before the response closes because access ended (an SSE event saying so). */
  farewell?: (reason: StreamEnd) => string | null
  /** The body piped into the response (a download): destroyed when the response ends early. */
  source?: { destroy(): void }
}

export interface LongLivedDeps {
  stallMs: number
  recheckEveryTicks: number
  recheck: AccessRecheck
  /** Called once when the response ended (frees its slot). */
  onEnd: (response: LongLivedResponse) => void
  debug: (msg: string, extra?: object) => void
}

/** How often the stall limit is looked at; the access re-check runs every few of these. */
export const TICK_MS = 1000

export class LongLivedResponse {
  readonly #controller = new AbortController()
  #ended: StreamEnd | null = null
  #waitingSince: number | null = null
  #ticks = 0
  #checking = false
  readonly #timer: NodeJS.Timeout
  readonly request: FastifyRequest
  readonly reply: FastifyReply
  readonly slot: { orgId: string; id: string }
  readonly #deps: LongLivedDeps
  readonly #options: LongLivedOptions

  constructor(request: FastifyRequest, reply: FastifyReply, slot: { orgId: string; id: string }, deps: LongLivedDeps, options: LongLivedOptions) {
    this.request = request
    this.reply = reply
    this.slot = slot
    this.#deps = deps
    this.#options = options
    this.#timer = setInterval(() => this.#tick(), TICK_MS).unref()
    const raw = reply.raw
    raw.on('close', () => this.end('client_closed'))
    raw.on('drain', () => (this.#waitingSince = null))
  }

  /** Aborted when the response ended, for whatever reason: loops and piped sources stop on it. */
  get signal(): AbortSignal {
    return this.#controller.signal
  }

  get ended(): StreamEnd | null {
    return this.#ended
  }

  /**
   * Takes the response over from Fastify as a Server-Sent Events stream: the headers set on the reply
   * so far (CORS, rate-limit fields, x-request-id) go out with the stream's own.
   */
  beginEventStream(): void {
    this.reply.header('x-request-id', this.request.id)
    const headers: OutgoingHttpHeaders = { ...(this.reply.getHeaders() as OutgoingHttpHeaders), 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' }
    this.reply.hijack()
    this.reply.raw.writeHead(200, headers)
  }

  /**
   * Writes a chunk; when the socket's buffer is full, waits until the reader took it (or the
   * response ended). False once the response has ended: the caller stops.
   */
  async write(chunk: string): Promise<boolean> {
    if (this.#ended) return false
    const raw = this.reply.raw
    if (raw.write(chunk)) return true
    this.#waitingSince ??= Date.now()
    try {
      await once(raw, 'drain', { signal: this.signal })
    } catch {
      return false
    }
    return this.#ended === null
  }

  /** Ends the response and frees its slot; the first reason wins. */
  end(reason: StreamEnd): void {
    if (this.#ended) return
    this.#ended = reason
    clearInterval(this.#timer)
    const raw = this.reply.raw
    if (!raw.destroyed && !raw.writableEnded) {
      // Nothing more can reach a reader that stopped reading: free the socket and what it buffers.
      if (reason === 'stalled' || !raw.headersSent) raw.destroy()
      else if (this.#options.farewell) {
        const last = this.#options.farewell(reason)
        if (last) raw.write(last)
        raw.end()
      }
      // A download cut short must not look complete: only a finished one ends cleanly.
      else if (reason === 'finished') raw.end()
      else raw.destroy()
    }
    if (reason !== 'finished') this.#options.source?.destroy()
    this.#controller.abort()
    this.#deps.onEnd(this)
    if (reason !== 'finished' && reason !== 'client_closed') this.#deps.debug('long-lived response ended', { reason, kind: this.request.routeOptions.url })
  }

  #tick(): void {
    if (this.#ended) return
    const raw = this.reply.raw
    // A piped body waits for drain inside the pipe; the response's own state shows it.
    if (raw.writableNeedDrain) this.#waitingSince ??= Date.now()
    else if (this.#waitingSince !== null && raw.writableLength === 0) this.#waitingSince = null
    if (this.#waitingSince !== null && Date.now() - this.#waitingSince >= this.#deps.stallMs) return this.end('stalled')
    if (++this.#ticks % this.#deps.recheckEveryTicks === 0) void this.#recheck()
  }

  async #recheck(): Promise<void> {
    if (this.#checking) return
    this.#checking = true
    try {
      const auth = await this.#deps.recheck(this.request)
      // A failed check cannot confirm access: the response ends (the client may reconnect and resume).
      if (!auth || auth.orgId !== this.slot.orgId || (this.#options.admin && auth.role !== 'admin')) this.end('access_ended')
    } catch (err) {
      this.#deps.debug('access re-check failed; ending the response', { err })
      this.end('access_ended')
    } finally {
      this.#checking = false
    }
  }
}
