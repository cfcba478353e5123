/**
 * One delivery attempt's HTTP exchange: whether the endpoint's filter lets the event through, the
 * body the endpoint receives (whole or thin), its signed headers, and the POST. A refused or failed
 * exchange is an attempt with an error, not an exception; only a secret that cannot be opened throws
 * (nothing was sent then).
 */
import { performance } from 'node:perf_hooks'
import type { Clock } from '../shared/clock.ts'
import { OutboundRefused } from '../shared/outbound/guarded-request.ts'
import type { SecretBox } from '../shared/secret-box.ts'
import { TEST_EVENT } from '../events/index.ts'
import { postDelivery } from './delivery-client.ts'
import type { ClaimedDelivery } from './delivery.repository.ts'
import { filterAccepts } from './filter/filter-match.ts'
import { DELIVERY_TIMEOUT_MS, isSuccess } from './retry-policy.ts'
import { deliveryHeaders } from './signing.ts'
import { signingKeys } from './signing-keys.ts'

/** Response bodies are kept only this far, for the delivery log. */
const KEPT_RESPONSE_BYTES = 1024

/** What one attempt came to, before it is written. */
export interface Attempt {
  startedAt: Date
  statusCode: number | null
  latencyMs: number
  error: string | null
  responseBody: string | null
}

/**
 * What became of a claimed delivery: an attempt, 'filtered' (the filter said no, nothing sent), or
 * null (its endpoint was disabled before it was sent).
 */
export type AttemptOutcome = Attempt | 'filtered' | null

export interface SenderOptions {
  box: SecretBox
  clock: Clock
  allowPrivate: boolean
}

/** Sends deliveries; the signing keys it opens are cached for the sender's life. */
export function deliverySender(opts: SenderOptions): (d: ClaimedDelivery) => Promise<Attempt> {
  const keys = signingKeys(opts.box)
  return async function send(d) {
    const startedAt = opts.clock.now()
    const body = bodyToSend(d)
    const headers = deliveryHeaders(d.event_id, Math.floor(startedAt.getTime() / 1000), body, d.secret_sealed ? keys.get(d.secret_sealed) : null)
    const t0 = performance.now()
    let statusCode: number | null = null
    let error: string | null = null
    let responseBody: string | null = null
    try {
      const res = await postDelivery(d.url, headers, body, { allowPrivate: opts.allowPrivate, timeoutMs: DELIVERY_TIMEOUT_MS, maxBodyBytes: KEPT_RESPONSE_BYTES })
      statusCode = res.status
      responseBody = res.body.length > 0 ? res.body.toString('utf8') : null
      if (!isSuccess(res.status)) error = `The receiver answered ${res.status}.`
    } catch (err) {
      error = err instanceof OutboundRefused ? err.reason : (err as Error).message
    }
    return { startedAt, statusCode, latencyMs: performance.now() - t0, error, responseBody }
  }
}

/** The filter is judged now, at delivery time, on the body this endpoint would receive. */
export function passesFilter(d: ClaimedDelivery): boolean {
  return d.filter === null || d.event_type === TEST_EVENT || filterAccepts(d.filter, JSON.parse(d.body))
}

/**
 * What the endpoint receives: the stored event, or for a thin endpoint its reference only
 * (docs/webhooks.md, The event catalogue). The test event has no record and is sent whole.
 */
export function bodyToSend(d: Pick<ClaimedDelivery, 'body' | 'payload' | 'event_seq' | 'event_type'>): string {
  if (d.payload !== 'thin' || d.event_type === TEST_EVENT) return d.body
  const event = JSON.parse(d.body) as { id: string; type: string; timestamp: string; data: { object: { id: string } } }
  return JSON.stringify({ id: event.id, seq: Number(d.event_seq), type: event.type, timestamp: event.timestamp, object_id: event.data.object.id })
}
