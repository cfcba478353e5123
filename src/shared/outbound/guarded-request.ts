/**
 * Outbound HTTP with an SSRF guard: the host is resolved, every address checked against the
 * policy, and the connection made to the address that was checked (no second lookup a DNS rebinding
 * could change). No redirects are followed, the whole exchange has a deadline, and the response
 * body is read up to a cap.
 *
 * What depends only on the URL (parsing, the static checks, the Host header) is worked out once per
 * URL, a passed address check is reused for a few seconds (checked-address.ts), and the request goes
 * out in one write (Content-Length, not chunked). Webhook deliveries, the hot caller, have a pooled
 * client of their own on the same checks (src/webhooks/delivery-client.ts).
 */
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { checkedAddress, type CheckedAddress } from './checked-address.ts'
import { OutboundRefused } from './outbound-refused.ts'

export { OutboundRefused } from './outbound-refused.ts'
export { resolveChecked } from './checked-address.ts'

export interface OutboundOptions {
  allowPrivate: boolean
  method?: 'GET' | 'POST'
  /** Content-Length and Host are set here. */
  headers?: Record<string, string>
  body?: string | Buffer
  timeoutMs?: number
  maxBodyBytes?: number
}

export interface OutboundResponse {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
  truncated: boolean
  /** Milliseconds from start to the end of the response. */
  latencyMs: number
  address: string
}

/** Static checks of a destination URL: absolute http(s), no userinfo, no fragment. */
export function checkOutboundUrl(raw: string, options: { allowHttp: boolean }): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new OutboundRefused('must be an absolute URL')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundRefused('must use https')
  if (url.protocol === 'http:' && !options.allowHttp) throw new OutboundRefused('must use https')
  if (url.username || url.password) throw new OutboundRefused('must not contain a user name or password')
  if (raw.includes('#')) throw new OutboundRefused('must not contain a fragment')
  return url
}

/** What a request needs from its URL, as http.request takes it (what urlToHttpOptions would give). */
interface Target {
  url: URL
  client: typeof http | typeof https
  /** Without the brackets of an IPv6 literal. */
  hostname: string
  port: number | undefined
  path: string
  /** The Host header: host, and the port when it is not the scheme's default. */
  hostHeader: string
}

const targets = new Map<string, Target>()
const MAX_TARGETS = 1000

function targetOf(raw: string): Target {
  let target = targets.get(raw)
  if (target) return target
  const url = checkOutboundUrl(raw, { allowHttp: true })
  target = {
    url,
    client: url.protocol === 'https:' ? https : http,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: `${url.pathname}${url.search}`,
    hostHeader: url.host,
  }
  if (targets.size >= MAX_TARGETS) targets.clear()
  targets.set(raw, target)
  return target
}

/** The connection goes to the address just checked, whatever DNS says a moment later. */
const lookups = new WeakMap<CheckedAddress, LookupFunction>()
function lookupTo(checked: CheckedAddress): LookupFunction {
  let lookup = lookups.get(checked)
  if (!lookup) {
    lookup = (_host, opts, callback) => {
      if ((opts as { all?: boolean }).all) (callback as unknown as (e: null, a: CheckedAddress[]) => void)(null, [checked])
      else callback(null, checked.address, checked.family)
    }
    lookups.set(checked, lookup)
  }
  return lookup
}

const NO_BODY = Buffer.alloc(0)

/** Header list in the raw form http.request accepts (name, value, name, value...). */
function headerList(target: Target, options: OutboundOptions): string[] {
  const list = ['host', target.hostHeader]
  if (options.headers) for (const name in options.headers) list.push(name, options.headers[name])
  if (options.body !== undefined) list.push('content-length', String(Buffer.byteLength(options.body)))
  return list
}

export async function guardedRequest(raw: string, options: OutboundOptions): Promise<OutboundResponse> {
  const target = targetOf(raw)
  const started = performance.now()
  const timeoutMs = options.timeoutMs ?? 10_000
  const maxBody = options.maxBodyBytes ?? 64 * 1024
  const checked = await checkedAddress(target.url.hostname, options.allowPrivate)
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = target.client.request(
      {
        protocol: target.url.protocol,
        hostname: target.hostname,
        port: target.port,
        path: target.path,
        method: options.method ?? 'GET',
        headers: headerList(target, options),
        lookup: lookupTo(checked),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        let truncated = false
        res.on('data', (chunk: Buffer) => {
          if (size >= maxBody) {
            truncated = true
            res.destroy()
            return
          }
          const room = maxBody - size
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk)
          size += Math.min(chunk.length, room)
          if (chunk.length > room) {
            truncated = true
            res.destroy()
          }
        })
        const finish = () => {
          clearTimeout(deadline)
          resolve({
            status: res.statusCode ?? 0,
            // Node builds the header object on first read; most callers never read it.
            get headers() {
              return res.headers
            },
            body: chunks.length === 0 ? NO_BODY : Buffer.concat(chunks),
            truncated,
            latencyMs: performance.now() - started,
            address: checked.address,
          })
        }
        res.on('end', finish)
        res.on('close', finish)
        res.on('error', () => finish())
      },
    )
    // One deadline for the whole exchange (connecting, sending, waiting, reading); it also covers an
    // idle socket, so no separate socket timeout is armed per request.
    const deadline = setTimeout(() => req.destroy(new OutboundRefused(`timed out after ${timeoutMs} ms`)), timeoutMs)
    req.on('error', (err) => {
      clearTimeout(deadline)
      reject(err instanceof OutboundRefused ? err : new OutboundRefused(err.message))
    })
    req.end(options.body)
  })
}
