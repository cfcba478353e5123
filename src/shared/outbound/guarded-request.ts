/**
 * Outbound HTTP with an SSRF guard: the host is resolved, every address checked against the
 * policy, and the connection made to the address that was checked (no second lookup a DNS rebinding
 * could change). No redirects are followed, the whole exchange has a deadline, and the response
 * body is read up to a cap.
 */
import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import net from 'node:net'
import { isPublicAddress } from './address-policy.ts'

export class OutboundRefused extends Error {
  readonly reason: string
  constructor(reason: string) {
    super(reason)
    this.reason = reason
  }
}

export interface OutboundOptions {
  allowPrivate: boolean
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string | Buffer
  timeoutMs?: number
  maxBodyBytes?: number
  /** Reuse connections (webhook deliveries to the same endpoint); the pool is per checked address. */
  keepAlive?: boolean
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

/** Resolves a host and refuses it when any address is not public (unless allowed). */
export async function resolveChecked(hostname: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, '')
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.promises.lookup(host, { all: true, verbatim: true }).catch(() => {
    throw new OutboundRefused(`could not resolve ${host}`)
  })
  if (addresses.length === 0) throw new OutboundRefused(`could not resolve ${host}`)
  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address))
    if (bad) throw new OutboundRefused(`${host} resolves to a private or reserved address (${bad.address})`)
  }
  return addresses[0]
}

// Keep-alive pools keyed by the address that was checked, so a reused socket always leads to an
// address that passed the policy, whatever the host name resolves to later.
const agents = new Map<string, http.Agent>()
const MAX_POOLS = 1000

function keepAliveAgent(url: URL, address: string): http.Agent {
  const key = `${url.protocol}//${url.hostname}|${address}|${url.port}`
  let agent = agents.get(key)
  if (!agent) {
    if (agents.size >= MAX_POOLS) {
      const [oldestKey, oldest] = agents.entries().next().value!
      oldest.destroy()
      agents.delete(oldestKey)
    }
    const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 64, scheduling: 'lifo' as const }
    agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options)
    agents.set(key, agent)
  }
  return agent
}

export async function guardedRequest(raw: string, options: OutboundOptions): Promise<OutboundResponse> {
  const url = checkOutboundUrl(raw, { allowHttp: true })
  const started = performance.now()
  const timeoutMs = options.timeoutMs ?? 10_000
  const maxBody = options.maxBodyBytes ?? 64 * 1024
  const checked = await resolveChecked(url.hostname, options.allowPrivate)
  // The connection goes to the address just checked, whatever DNS says a moment later.
  const lookup: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [checked])
    else callback(null, checked.address, checked.family)
  }
  const client = url.protocol === 'https:' ? https : http
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = client.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, lookup, timeout: timeoutMs, agent: options.keepAlive ? keepAliveAgent(url, checked.address) : false },
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
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated, latencyMs: performance.now() - started, address: checked.address })
        }
        res.on('end', finish)
        res.on('close', finish)
        res.on('error', () => finish())
      },
    )
    // One deadline for the whole exchange, not only for idle sockets.
    const deadline = setTimeout(() => req.destroy(new OutboundRefused(`timed out after ${timeoutMs} ms`)), timeoutMs)
    req.on('timeout', () => req.destroy(new OutboundRefused(`timed out after ${timeoutMs} ms`)))
    req.on('error', (err) => {
      clearTimeout(deadline)
      reject(err instanceof OutboundRefused ? err : new OutboundRefused(err.message))
    })
    if (options.body) req.write(options.body)
    req.end()
  })
}
