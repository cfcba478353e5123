/**
 * The HTTP client of webhook deliveries: one undici Pool per endpoint origin and checked address,
 * driven through its dispatch interface (no response stream, no per-request agent lookup). On this
 * machine a delivery's POST costs about half the client CPU of Node's http.request with a keep-alive
 * agent (docs/benchmarks.md, Webhooks).
 *
 * The same rules as guardedRequest (src/shared/outbound): the host is checked against the address
 * policy (a passed check reused for a few seconds) and the connection goes to the checked address,
 * whatever DNS says later (a pool only ever connects to the address it was made for; TLS still
 * verifies the certificate against the host name); redirects are not followed (a 3xx is an answer);
 * one deadline covers the whole exchange, connecting included; the response body is kept up to a
 * cap, and a longer one is cut off (the connection is then closed, not reused).
 */
import net from 'node:net'
import { buildConnector, Pool, type Dispatcher } from 'undici'
import { checkedAddress } from '../shared/outbound/checked-address.ts'
import { checkOutboundUrl, OutboundRefused } from '../shared/outbound/guarded-request.ts'

export interface DeliveryResponse {
  status: number
  /** Up to the cap; empty when the receiver sent nothing. */
  body: Buffer
}

interface Target {
  origin: string
  path: string
  /** Without the brackets of an IPv6 literal. */
  hostname: string
}

const targets = new Map<string, Target>()
const MAX_TARGETS = 1000

function targetOf(raw: string): Target {
  let target = targets.get(raw)
  if (target) return target
  const url = checkOutboundUrl(raw, { allowHttp: true })
  target = { origin: url.origin, path: `${url.pathname}${url.search}`, hostname: url.hostname.replace(/^\[|\]$/g, '') }
  if (targets.size >= MAX_TARGETS) targets.clear()
  targets.set(raw, target)
  return target
}

// Pools keyed by origin and the address that was checked: a reused connection always leads to an
// address that passed the policy.
const pools = new Map<string, Pool>()
const MAX_POOLS = 1000
const CONNECTIONS_PER_POOL = 64

function poolFor(target: Target, address: string, timeoutMs: number): Pool {
  const key = `${target.origin}|${address}`
  let pool = pools.get(key)
  if (pool) return pool
  if (pools.size >= MAX_POOLS) {
    const [oldestKey, oldest] = pools.entries().next().value!
    void oldest.destroy().catch(() => {})
    pools.delete(oldestKey)
  }
  const connector = buildConnector({ timeout: timeoutMs })
  // The socket goes to the checked address; `host` (the URL's) still names the server for TLS.
  const connect: buildConnector.connector = (options, callback) => connector({ ...options, hostname: address }, callback)
  pool = new Pool(target.origin, { connections: CONNECTIONS_PER_POOL, pipelining: 1, connect, headersTimeout: timeoutMs + 1000, bodyTimeout: timeoutMs + 1000 })
  pools.set(key, pool)
  return pool
}

const NO_BODY = Buffer.alloc(0)

/** undici's wording where Node's http client (and the delivery log until now) said it more plainly. */
function describe(err: Error): string {
  const code = (err as { code?: string }).code
  if (code === 'UND_ERR_SOCKET') return `socket hang up (the receiver closed the connection: ${err.message})`
  return err.message
}

/**
 * POSTs `body` with `headers` (Host and Content-Length are set here). Resolves with the status and
 * the first `maxBodyBytes` of the body; rejects with OutboundRefused when the address is refused,
 * the deadline passes, or the exchange fails.
 */
export async function postDelivery(raw: string, headers: Record<string, string>, body: string, opts: { allowPrivate: boolean; timeoutMs: number; maxBodyBytes: number }): Promise<DeliveryResponse> {
  const target = targetOf(raw)
  const checked = await checkedAddress(target.hostname, opts.allowPrivate)
  if (net.isIP(checked.address) === 0) throw new OutboundRefused(`could not resolve ${target.hostname}`)
  const pool = poolFor(target, checked.address, opts.timeoutMs)
  return new Promise<DeliveryResponse>((resolve, reject) => {
    let settled = false
    let controller: Dispatcher.DispatchController | null = null
    let status = 0
    const chunks: Buffer[] = []
    let size = 0
    const settle = (err: Error | null) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      if (err) reject(err instanceof OutboundRefused ? err : new OutboundRefused(describe(err)))
      else resolve({ status, body: chunks.length === 0 ? NO_BODY : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) })
    }
    // Made when needed: an error captures a stack trace, which every delivery would pay for.
    let timedOut: OutboundRefused | null = null
    // One deadline for the whole exchange. Before the request is under way there is nothing to
    // abort yet: the caller is answered now and the request aborted as soon as it starts.
    const deadline = setTimeout(() => {
      timedOut = new OutboundRefused(`timed out after ${opts.timeoutMs} ms`)
      settle(timedOut)
      controller?.abort(timedOut)
    }, opts.timeoutMs)
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c
        if (timedOut) c.abort(timedOut)
      },
      onResponseStart(_c, statusCode) {
        status = statusCode
      },
      onResponseData(c, chunk) {
        const room = opts.maxBodyBytes - size
        if (chunk.length > room) {
          if (room > 0) chunks.push(Buffer.from(chunk.subarray(0, room)))
          size = opts.maxBodyBytes
          // Cut off: what was received is the answer; the connection is closed.
          settle(null)
          c.abort(new Error('response body over the kept size'))
          return
        }
        // Copied: undici may reuse the chunk's memory.
        chunks.push(Buffer.from(chunk))
        size += chunk.length
      },
      onResponseEnd() {
        settle(null)
      },
      onResponseError(_c, err) {
        settle(err)
      },
    }
    pool.dispatch({ origin: target.origin, path: target.path, method: 'POST', headers, body }, handler)
  })
}
