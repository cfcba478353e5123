/**
 * A real webhook receiver on loopback for tests: records every request (headers and raw body) and
 * answers as a test tells it (status codes in turn, a delay, or dropping the connection).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  headers: Record<string, string>
  body: string
  at: number
}

export type Reply = number | { status: number; delayMs?: number } | 'drop'

export interface Receiver {
  url: string
  received: Received[]
  /** Answers to give, in order; when empty, `fallback` (default 200). */
  replies: Reply[]
  fallback: Reply
  /** Decides by the request itself when set and it answers (before `replies` and `fallback`). */
  decide?: (body: string, headers: Record<string, string>) => Reply | undefined
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>
  close(): Promise<void>
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const sockets = new Set<import('node:net').Socket>()
  const receiver: Receiver = {
    url: '',
    received: [],
    replies: [],
    fallback: 200,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs
      while (receiver.received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${receiver.received.length} of ${count} deliveries in ${timeoutMs} ms`)
        await new Promise((r) => setTimeout(r, 20))
      }
      return receiver.received
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const reply = receiver.decide?.(body, req.headers as Record<string, string>) ?? (receiver.replies.length > 0 ? receiver.replies.shift()! : receiver.fallback)
      if (reply === 'drop') {
        req.socket.destroy()
        return
      }
      receiver.received.push({ headers: req.headers as Record<string, string>, body, at: Date.now() })
      const { status, delayMs } = typeof reply === 'number' ? { status: reply, delayMs: 0 } : reply
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `nope ${status}`)
      }, delayMs ?? 0)
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
  return receiver
}
