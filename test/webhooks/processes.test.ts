/**
 * Several processes on one PostgreSQL: two API processes that do no deliveries (SERVICE_ROLE=web),
 * one that does both, and a separate worker (SERVICE_ROLE=worker). Changes written through the API
 * processes are delivered once each in normal operation, by whichever process claims them.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { createPostgresDatabase, isPostgresReachable } from '../helpers/databases.ts'
import { freePort, signIn } from '../helpers/live-service.ts'
import { spawnService, type ChildService } from '../helpers/service-process.ts'
import { openPostgres } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { startReceiver } from './receiver.ts'

const reachable = await isPostgresReachable()
if (!reachable && process.env.CI === 'true') throw new Error('CI=true and PostgreSQL is not reachable')

describe.runIf(reachable)('webhook delivery with several processes on one PostgreSQL', () => {
  const cleanups: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c()
  })

  it('API-only processes queue, worker and full processes deliver, each event once', async () => {
    const pgdb = await createPostgresDatabase()
    cleanups.push(() => pgdb.drop())
    const database = await openPostgres(pgdb.url)
    await migrateToLatest(database)
    await createOrganizationWithAdmin(database.db, { name: 'Many', adminEmail: 'many@example.test', adminPassword: 'password1234' })
    await database.close()
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())

    const publicUrl = 'http://127.0.0.1:1'
    const common = { DATABASE_URL: pgdb.url, PUBLIC_URL: publicUrl, ALLOW_PRIVATE_OUTBOUND: 'true' }
    const ports = [await freePort(), await freePort(), await freePort()]
    const started: ChildService[] = await Promise.all([
      spawnService({ ...common, PORT: String(ports[0]), SERVICE_ROLE: 'web' }),
      spawnService({ ...common, PORT: String(ports[1]), SERVICE_ROLE: 'web' }),
    ])
    cleanups.push(async () => {
      for (const s of started) await s.kill('SIGTERM')
    })
    const bases = ports.map((p) => `http://127.0.0.1:${p}`)
    const cookie = await signIn(bases[0], 'many@example.test', 'password1234')
    const csrf = (await (await fetch(`${bases[0]}/api/v1/me`, { headers: { cookie } })).json()).csrf_token
    const headers = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }
    const hook = await fetch(`${bases[1]}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url, events: ['account.created'] }) })
    expect(hook.status).toBe(201)

    // First only API-only processes: nothing is delivered until a delivering process runs.
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${bases[i % 2]}/api/v1/accounts`, { method: 'POST', headers, body: JSON.stringify({ name: `queued ${i}` }) })
      expect(res.status).toBe(201)
    }
    await new Promise((r) => setTimeout(r, 800))
    expect(receiver.received).toHaveLength(0)

    started.push(await spawnService({ ...common, PORT: String(ports[2]), SERVICE_ROLE: 'worker' }))
    started.push(await spawnService({ ...common, PORT: String(ports[2]), SERVICE_ROLE: 'all' }))
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => fetch(`${bases[i % 3]}/api/v1/accounts`, { method: 'POST', headers, body: JSON.stringify({ name: `live ${i}` }) })),
    )
    await receiver.waitFor(80, 30_000)
    await new Promise((r) => setTimeout(r, 1000))
    const ids = receiver.received.map((r) => r.headers['webhook-id'])
    expect(ids).toHaveLength(80)
    expect(new Set(ids).size).toBe(80)
  }, 120_000)
})
