/**
 * Order per record across processes: two worker processes deliver one ordered endpoint's events on
 * one PostgreSQL while the receiver refuses the first attempt of every record's first event. Each
 * record's events must arrive as first, first again (the retry, 5 s later), second, third: no
 * process sends a record's later event while its first waits for the retry.
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

describe.runIf(reachable)('webhook order per record with several delivering processes', () => {
  const cleanups: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c()
  })

  it('two workers keep each record\'s events in order while its first event waits for a retry', async () => {
    const pgdb = await createPostgresDatabase()
    cleanups.push(() => pgdb.drop())
    const database = await openPostgres(pgdb.url)
    await migrateToLatest(database)
    await createOrganizationWithAdmin(database.db, { name: 'Ordered', adminEmail: 'ordered@example.test', adminPassword: 'password1234' })
    await database.close()
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const failedOnce = new Set<string>()
    receiver.decide = (body) => {
      const event = JSON.parse(body) as { id: string; type: string }
      if (event.type !== 'account.created' || failedOnce.has(event.id)) return 200
      failedOnce.add(event.id)
      return 500
    }

    const common = { DATABASE_URL: pgdb.url, PUBLIC_URL: 'http://127.0.0.1:1', ALLOW_PRIVATE_OUTBOUND: 'true' }
    const webPort = await freePort()
    const started: ChildService[] = [await spawnService({ ...common, PORT: String(webPort), SERVICE_ROLE: 'web' })]
    cleanups.push(async () => {
      for (const s of started) await s.kill('SIGTERM')
    })
    const base = `http://127.0.0.1:${webPort}`
    const cookie = await signIn(base, 'ordered@example.test', 'password1234')
    const csrf = (await (await fetch(`${base}/api/v1/me`, { headers: { cookie } })).json()).csrf_token
    const headers = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }
    const hook = await fetch(`${base}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url, events: ['account.created', 'account.updated'], ordering: 'per_record' }) })
    expect(hook.status).toBe(201)
    started.push(await spawnService({ ...common, PORT: String(await freePort()), SERVICE_ROLE: 'worker' }))
    started.push(await spawnService({ ...common, PORT: String(await freePort()), SERVICE_ROLE: 'worker' }))

    const RECORDS = 8
    const ids: string[] = []
    for (let i = 0; i < RECORDS; i++) {
      const res = await fetch(`${base}/api/v1/accounts`, { method: 'POST', headers, body: JSON.stringify({ name: `R${i} v0` }) })
      expect(res.status).toBe(201)
      ids.push((await res.json()).id)
    }
    for (const v of [1, 2]) {
      await Promise.all(ids.map((id, i) => fetch(`${base}/api/v1/accounts/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ name: `R${i} v${v}` }) })))
    }
    await receiver.waitFor(RECORDS * 4, 40_000)
    await new Promise((r) => setTimeout(r, 500))
    const arrivals = new Map<string, string[]>()
    for (const r of receiver.received) {
      const object = JSON.parse(r.body).data.object as { id: string; name: string }
      arrivals.set(object.id, [...(arrivals.get(object.id) ?? []), object.name.split(' ')[1]])
    }
    for (const id of ids) expect(arrivals.get(id)).toEqual(['v0', 'v0', 'v1', 'v2'])
    expect(receiver.received).toHaveLength(RECORDS * 4)
  }, 120_000)
})
