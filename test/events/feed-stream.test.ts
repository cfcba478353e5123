/**
 * GET /api/v1/events/stream over real HTTP: Server-Sent Events in seq order, a change shown as it
 * happens, and a reconnect with Last-Event-ID that resumes after the last event received.
 */
import { describe, expect, it } from 'vitest'
import type { AddressInfo } from 'node:net'
import { targets } from '../helpers/databases.ts'
import { json, type Member } from '../helpers/build-app.ts'
import { oauthHarnessPerFile, type OAuthHarness } from '../oauth/helpers.ts'
import { SESSION_COOKIE } from '../../src/orgs/session.service.ts'
import { openSse, type SseStream } from '../helpers/sse.ts'

/** The first `count` event frames of a stream, then the stream closed. */
async function readFrames(stream: SseStream, count: number) {
  await stream.waitFor(() => stream.frames.length >= count)
  stream.close()
  return stream.frames.slice(0, count)
}

describe.each(await targets())('event stream on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  oauthHarnessPerFile(target, (...world) => ([h, admin] = world))

  it('streams events as they are numbered and resumes after Last-Event-ID', async () => {
    if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`
    const headers = { cookie: `${SESSION_COOKIE}=${admin.session}` }
    for (const name of ['A', 'B']) expect((await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name } })).statusCode).toBe(201)

    const res = await openSse(`${base}/api/v1/events/stream`, headers)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const later = (async () => {
      await new Promise((r) => setTimeout(r, 200))
      const made = await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'C' } })
      return json(made).id as string
    })()
    const frames = await readFrames(res, 3)
    expect(frames.map((f) => [f.id, f.event, f.data.data.object.name])).toEqual([['1', 'account.created', 'A'], ['2', 'account.created', 'B'], ['3', 'account.created', 'C']])
    expect(frames[2].data.data.object.id).toBe(await later)
    expect(frames[2].data.seq).toBe(3)

    const again = await openSse(`${base}/api/v1/events/stream`, { ...headers, 'last-event-id': '1' })
    const rest = await readFrames(again, 2)
    expect(rest.map((f) => f.id)).toEqual(['2', '3'])

    const bad = await fetch(`${base}/api/v1/events/stream`, { headers: { ...headers, 'last-event-id': 'yesterday' } })
    expect(bad.status).toBe(400)
    expect(bad.headers.get('content-type')).toContain('application/problem+json')

    // A stream still open when the service shuts down ends, so closing does not wait for its client
    // (the file's afterAll closes the app; it would time out here otherwise).
    const open = await fetch(`${base}/api/v1/events/stream?after=3`, { headers })
    expect(open.status).toBe(200)
  })
})
