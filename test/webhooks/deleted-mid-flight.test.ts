/**
 * A webhook deleted while its deliveries are in flight (issue 29, item 7) is an expected race, not
 * a fault: the receivers hold the requests open, the webhook is deleted meanwhile, then they answer.
 * No log line is at error level (error means an operator must act: docs/webhooks.md, Logs), the
 * deleted webhook leaves no delivery or attempt row behind, and another endpoint's deliveries,
 * written by the same statements, are written once and never sent again. Before, the attempt row's
 * foreign key failed, which failed the whole batch of successes: "bookkeeping failed" at error level
 * for every delivery in it, and the other endpoint's deliveries sent again when their leases ran out.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { FastifyInstance } from 'fastify'
import { buildApp, loggerOptions } from '../../src/app.ts'
import { ManualClock } from '../../src/shared/clock.ts'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'
import { createOrgWithAdmin, json, testConfig, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'

/** A receiver that holds every request open until the test answers them all. */
interface HoldingReceiver {
  url: string
  received: number
  answer(status: number): void
  close(): Promise<void>
}

async function holdingReceiver(): Promise<HoldingReceiver> {
  const held: http.ServerResponse[] = []
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      receiver.received++
      held.push(res)
    })
  })
  const receiver: HoldingReceiver = {
    url: '',
    received: 0,
    answer: (status) => held.splice(0).forEach((res) => res.writeHead(status, { 'content-type': 'text/plain' }).end('answer')),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return receiver
}

async function until(what: string, ok: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe.each(await targets())('a webhook deleted while its deliveries are in flight on %s', (target) => {
  let tdb: TestDatabase
  let app: FastifyInstance
  let clock: ManualClock
  let admin: Member
  const lines: Array<{ level: number; msg: string; err?: { message: string } }> = []

  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    // Ahead of real time, so rows written at real "now" are due, while leases wait for the test to move it.
    clock = new ManualClock(Date.now() + 3600_000)
    const config = testConfig({ ALLOW_PRIVATE_OUTBOUND: 'true', LOG_LEVEL: 'debug' })
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line))
        done()
      },
    })
    app = await buildApp({ config, database: tdb.database, logger: { ...loggerOptions(config), stream }, clock })
    await app.ready()
  })
  afterAll(async () => {
    await app?.close()
    await tdb?.drop()
  })
  beforeEach(async () => {
    await tdb.reset()
    lines.length = 0
    admin = await createOrgWithAdmin(app)
  })

  async function register(url: string): Promise<string> {
    const res = await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url, events: ['account.created'] } })
    expect(res.statusCode, res.body).toBe(201)
    return json(res).id
  }
  const deliveriesOf = async (hookId: string) => json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hookId}/deliveries` })).data as Array<{ status: string; attempts: unknown[] }>

  it.each([
    ['succeeds', 200],
    ['fails and would be retried', 500],
    ['answers 410 Gone, which would disable it', 410],
  ])('an attempt that %s is dropped quietly; the other endpoint is written once and not sent again', async (_outcome, status) => {
    const deleted = await holdingReceiver()
    const kept = await holdingReceiver()
    try {
      const deletedHook = await register(deleted.url)
      const keptHook = await register(kept.url)
      for (let i = 0; i < 3; i++) await createVia(admin, 'account')
      await until('both receivers to hold three requests', () => deleted.received === 3 && kept.received === 3)

      const removed = await admin.request({ method: 'DELETE', url: `/api/v1/webhooks/${deletedHook}` })
      expect(removed.statusCode).toBe(204)
      // Both answer at once, so their outcomes meet in the dispatcher's same turns.
      deleted.answer(status)
      kept.answer(200)
      await until('the kept endpoint\'s deliveries to be written', async () => (await deliveriesOf(keptHook)).every((d) => d.status === 'succeeded'))
      await until('the dispatcher to settle', async () => (await Promise.race([app.webhookDispatcher!.settled().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 100))])))

      const errors = lines.filter((l) => l.level >= 50)
      expect(errors.map((l) => `${l.msg}: ${l.err?.message ?? ''}`)).toEqual([])
      if (status !== 200) expect(lines.some((l) => l.level === 20 && l.msg.includes('webhook deleted while a delivery was in flight'))).toBe(true)
      const keptDeliveries = await deliveriesOf(keptHook)
      expect(keptDeliveries.map((d) => [d.status, d.attempts.length])).toEqual([['succeeded', 1], ['succeeded', 1], ['succeeded', 1]])
      const left = await sql<{ deliveries: number; attempts: number }>`
        SELECT (SELECT count(*) FROM webhook_deliveries WHERE webhook_id = ${deletedHook})::int AS deliveries,
               (SELECT count(*) FROM webhook_attempts a WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.org_id = a.org_id AND d.id = a.delivery_id))::int AS attempts`.execute(app.db)
      expect(left.rows[0]).toEqual({ deliveries: 0, attempts: 0 })

      // Past every lease: nothing comes due again, at either receiver.
      clock.advance(3600)
      app.webhookDispatcher!.wake()
      await new Promise((r) => setTimeout(r, 500))
      expect([deleted.received, kept.received]).toEqual([3, 3])
    } finally {
      deleted.answer(200)
      kept.answer(200)
      await deleted.close()
      await kept.close()
    }
  })
})
