/**
 * The delivery HTTP client (src/webhooks/delivery-client.ts): the rules every outbound request
 * keeps (address guard, no redirects, one deadline, a capped response body), on a loopback server.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postDelivery } from '../../src/webhooks/delivery-client.ts'

describe('the delivery client', () => {
  let server: http.Server
  let base = ''
  const received: Array<{ path: string; headers: http.IncomingHttpHeaders; body: string }> = []
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        received.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
        if (req.url === '/big') res.writeHead(200).end('x'.repeat(5000))
        else if (req.url === '/moved') res.writeHead(302, { location: '/elsewhere' }).end()
        else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('late'), 2000)
        else if (req.url === '/drop') req.socket.destroy()
        else res.writeHead(200).end('ok')
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => {
    server.closeAllConnections()
    server.close()
  })
  const opts = { allowPrivate: true, timeoutMs: 1000, maxBodyBytes: 1024 }

  it('sends the body and headers once, with a Content-Length', async () => {
    const res = await postDelivery(`${base}/hook?a=1`, { 'content-type': 'application/json', 'webhook-id': 'evt_1' }, '{"a":1}', opts)
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe('ok')
    const got = received.at(-1)!
    expect(got).toMatchObject({ path: '/hook?a=1', body: '{"a":1}' })
    expect(got.headers).toMatchObject({ 'content-length': '7', 'webhook-id': 'evt_1', host: base.slice('http://'.length) })
  })

  it('keeps at most the capped part of a long answer', async () => {
    const res = await postDelivery(`${base}/big`, {}, '{}', opts)
    expect(res.status).toBe(200)
    expect(res.body.length).toBe(1024)
    // The cut-off connection is not reused: the next delivery still goes through.
    expect((await postDelivery(`${base}/ok`, {}, '{}', opts)).status).toBe(200)
  })

  it('does not follow redirects', async () => {
    const res = await postDelivery(`${base}/moved`, {}, '{}', opts)
    expect(res.status).toBe(302)
    expect(received.at(-1)!.path).toBe('/moved')
  })

  it('gives up at the deadline', async () => {
    const t0 = performance.now()
    await expect(postDelivery(`${base}/slow`, {}, '{}', opts)).rejects.toThrow(/timed out after 1000 ms/)
    expect(performance.now() - t0).toBeLessThan(1800)
  })

  it('reports a dropped connection', async () => {
    await expect(postDelivery(`${base}/drop`, {}, '{}', opts)).rejects.toThrow(/socket hang up|ECONNRESET/)
  })

  it('refuses a private address unless allowed, before connecting', async () => {
    const before = received.length
    await expect(postDelivery(`${base}/ok`, {}, '{}', { ...opts, allowPrivate: false })).rejects.toThrow(/private or reserved address \(127\.0\.0\.1\)/)
    expect(received.length).toBe(before)
  })
})
