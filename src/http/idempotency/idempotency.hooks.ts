/**
 * Idempotent retries for every write under /api/v1 (docs/api.md, Idempotent retries): a request
 * with an Idempotency-Key claims the key just before its handler runs, and its answer is kept for
 * 24 hours; a retry with the same key gets that answer again, marked `Idempotent-Replayed: true`,
 * and writes nothing.
 *
 * The claim is a preHandler appended to each write route (onRoute), so it runs after
 * authentication, scope checks and schema validation: a request refused by those never reached
 * the handler and leaves no key behind (like Stripe, which keeps results only once execution began).
 */
import crypto from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler, onSendHookHandler, preHandlerHookHandler } from 'fastify'
import type { Clock } from '../../shared/clock.ts'
import { ProblemError } from '../../shared/errors.ts'
import { fingerprintOf, idempotencyKeyOf, KEYED_METHODS, principalOf, REPLAYED_HEADER } from './idempotency-key.ts'
import { isServerLost } from '../../db/database-unavailable.ts'
import { claimKey, findKey, recordOutcome, releaseKey, renewLease, storeAnswer, takeOverCommitted, type KeyRef, type StoredAnswer } from './idempotency.repository.ts'
import type { AuthContext, WriteReceipt } from '../../shared/auth-context.ts'
import type { SecretBox } from '../../shared/secret-box.ts'

/** How long an answer is kept, and the key with it (draft-ietf-httpapi-idempotency-key-header §2.3). */
export const KEEP_SECONDS = 24 * 3600
/** Headers of the answer that belong to it, as opposed to this one request (x-request-id). */
const KEPT_HEADERS = ['content-type', 'location']

interface Claim {
  ref: KeyRef
  id: string
  renewal: NodeJS.Timeout
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: Claim | null
  }
  interface FastifyContextConfig {
    /** The answer shows a secret once (a signing secret, a client secret, an invitation link): kept sealed. */
    answerHoldsSecret?: boolean
  }
}

/**
 * Which answers are kept. A 5xx means the write's transaction did not commit (every write is one
 * transaction), and 401, 403, 409 and 429 say "nothing was done; fix the credentials or try again
 * later": for these the key is released so a retry runs. Every other answer is final and kept.
 */
export function keepsAnswer(status: number): boolean {
  return status < 500 && status !== 401 && status !== 403 && status !== 409 && status !== 429
}

const seconds = (clock: Clock, n: number) => new Date(clock.now().getTime() + n * 1000)

/** The scopes an answer was shaped for, as the key keeps them. */
const scopesOf = (auth: AuthContext) => [...auth.scopes].sort().join(' ')

/**
 * The receipt a keyed request's writes use: each committed outcome is recorded under the claim, and
 * `replayed` (a retry of a first attempt that committed) are handed back in order instead.
 */
function receiptFor(ref: KeyRef, claimId: string, replayed: unknown[], box: SecretBox | null): WriteReceipt {
  let next = 0
  return {
    takeReplayed() {
      if (next >= replayed.length) return null
      const kept = replayed[next++]
      return { outcome: box ? JSON.parse(box.open((kept as { sealed: string }).sealed)) : kept }
    },
    record: (trx, outcome) => recordOutcome(trx, ref, claimId, box ? { sealed: box.seal(JSON.stringify(outcome ?? null)) } : outcome),
  }
}

export function registerIdempotency(api: FastifyInstance, opts: { clock: Clock; leaseSeconds: number; crashBeforeAnswer?: boolean }): void {
  const { clock, leaseSeconds } = opts
  api.decorateRequest('idempotencyClaim', null)

  /** The box that seals what this route's key keeps, or null when its answers hold no secret. */
  const sealing = (request: FastifyRequest): SecretBox | null => (request.routeOptions.config?.answerHoldsSecret ? api.secretBox : null)

  /** Holds the claim while the handler runs: the lease is renewed, so only a dead process lets it lapse. */
  function hold(request: FastifyRequest, ref: KeyRef, claimId: string, replayed: unknown[]): void {
    const renewal = setInterval(() => {
      renewLease(api.db, ref, claimId, seconds(clock, leaseSeconds)).catch((err) => request.log.warn({ err }, 'renewing an idempotency key failed'))
    }, (leaseSeconds / 3) * 1000).unref()
    request.idempotencyClaim = { ref, id: claimId, renewal }
    request.auth = { ...request.auth!, receipt: receiptFor(ref, claimId, replayed, sealing(request)) }
  }

  async function claimOrReplay(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    if (!KEYED_METHODS.has(request.method)) return
    const key = idempotencyKeyOf(request)
    if (key === null) return
    const auth = request.auth!
    const ref: KeyRef = { orgId: auth.orgId, principal: principalOf(auth), key }
    const fingerprint = fingerprintOf(request)
    const scopes = scopesOf(auth)
    const claimId = crypto.randomUUID()
    // A second pass only when the holder released the key between our two statements.
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = clock.now()
      if (await claimKey(api.db, ref, fingerprint, scopes, claimId, now, seconds(clock, leaseSeconds), seconds(clock, KEEP_SECONDS))) {
        hold(request, ref, claimId, [])
        return
      }
      const row = await findKey(api.db, ref)
      if (!row) continue
      // draft-ietf-httpapi-idempotency-key-header §2.7: a key reused with another request is a 422.
      if (row.fingerprint !== fingerprint) {
        throw new ProblemError(422, 'idempotency_key_reused', 'Idempotency-Key reused', 'This Idempotency-Key was sent with a different request (method, path or body). Use a new key for a new request.')
      }
      // The answer was shaped for the scopes of the token that sent the key first: shown to those scopes only.
      if (row.scopes !== null && row.scopes !== scopes) {
        throw new ProblemError(
          422,
          'idempotency_key_scope_mismatch',
          'Idempotency-Key used with other scopes',
          `This Idempotency-Key was first sent by a token with the scopes "${row.scopes}"; its answer is replayed only to a token with the same scopes (this one has "${scopes}"). Retry with such a token, or use a new key.`,
        )
      }
      if (row.answer) return replay(reply, row.sealed ? { ...row.answer, body: api.secretBox.open(row.answer.body) } : row.answer)
      if (row.committed) {
        // The first attempt committed and its process died before answering: rerun the request with
        // what it committed, so its answer is rebuilt and nothing is written again.
        const replayed = await takeOverCommitted(api.db, ref, claimId, now, seconds(clock, leaseSeconds))
        if (replayed) {
          hold(request, ref, claimId, replayed)
          reply.header(REPLAYED_HEADER, 'true')
          return
        }
      }
      break
    }
    // draft-ietf-httpapi-idempotency-key-header §2.7: a retry while the first request runs is a 409.
    throw new ProblemError(409, 'idempotency_key_in_use', 'Idempotency-Key in use', 'A request with this Idempotency-Key is still being processed. Retry it shortly to get its answer.', undefined, { 'retry-after': '1' })
  }

  function replay(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
    for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value)
    return reply.header(REPLAYED_HEADER, 'true').status(answer.status).send(answer.body === '' ? undefined : answer.body)
  }

  // Route-level hooks on write routes only: reads (the hot list path) pay nothing for keys.
  api.addHook('onRoute', (route) => {
    if (![route.method].flat().some((m) => KEYED_METHODS.has(m))) return
    route.preHandler = [...[route.preHandler ?? []].flat(), claimOrReplay] as preHandlerHookHandler[]
    route.onSend = [...[route.onSend ?? []].flat(), keepAnswer] as onSendHookHandler[]
    route.onResponse = [...[route.onResponse ?? []].flat(), freeUnanswered] as onResponseHookHandler[]
  })

  async function keepAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const claim = request.idempotencyClaim
    if (!claim) return payload
    request.idempotencyClaim = null
    clearInterval(claim.renewal)
    try {
      // Only text answers are kept (every write answers JSON or nothing); anything else frees the key.
      // A crash test's failure point: the write committed, its answer not yet kept (config TEST_FAULTS).
      if (opts.crashBeforeAnswer) process.kill(process.pid, 'SIGKILL')
      if (keepsAnswer(reply.statusCode) && (payload === undefined || payload === null || typeof payload === 'string')) {
        const headers: Record<string, string> = {}
        for (const name of KEPT_HEADERS) {
          const value = reply.getHeader(name)
          if (value !== undefined) headers[name] = String(value)
        }
        const box = sealing(request)
        const body = payload ?? ''
        await storeAnswer(api.db, claim.ref, claim.id, { status: reply.statusCode, headers, body: box ? box.seal(body) : body }, box !== null)
      } else {
        await releaseKey(api.db, claim.ref, claim.id)
      }
    } catch (err) {
      // The answer still goes out; the claim's lease lapses and a retry then runs again.
      request.log.error({ err }, 'keeping the answer of an idempotency key failed')
      releaseAfterFailover(request, claim, err)
    }
    return payload
  }

  /**
   * The primary was lost while the key was held (a failover): its claim, committed before, is still
   * there on the new primary, and a retry would hear 409 idempotency_key_in_use for the whole lease.
   * Releasing it as soon as a primary answers again lets the retry run (or replay a committed outcome).
   */
  function releaseAfterFailover(request: FastifyRequest, claim: { ref: KeyRef; id: string }, err: unknown): void {
    if (!isServerLost(err)) return
    const giveUpAt = Date.now() + leaseSeconds * 1000
    const attempt = () => {
      releaseKey(api.db, claim.ref, claim.id).catch((again: unknown) => {
        if (isServerLost(again) && Date.now() < giveUpAt) setTimeout(attempt, 250).unref()
        else request.log.warn({ err: again }, 'releasing an idempotency key failed')
      })
    }
    setTimeout(attempt, 250).unref()
  }

  // A claimed request that never reached onSend (an aborted reply) frees its key.
  async function freeUnanswered(request: FastifyRequest): Promise<void> {
    const claim = request.idempotencyClaim
    if (!claim) return
    request.idempotencyClaim = null
    clearInterval(claim.renewal)
    await releaseKey(api.db, claim.ref, claim.id).catch((err) => {
      request.log.warn({ err }, 'releasing an idempotency key failed')
      releaseAfterFailover(request, claim, err)
    })
  }
}
