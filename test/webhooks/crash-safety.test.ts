/**
 * At-least-once across crashes: the service runs as a child process while records are written
 * continuously; it is killed with SIGKILL several times and restarted. Every change that committed
 * must reach the receiver, signed, at least once.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { createPostgresDatabase, targets } from '../helpers/databases.ts'
import { freePort, signIn } from '../helpers/live-service.ts'
import { spawnService, type ChildService } from '../helpers/service-process.ts'
import { openEmbedded, openPostgres, type Database } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { startReceiver } from './receiver.ts'

const SECRET = 'crash test signing secret'
const EMAIL = 'crash@example.test'
const PASSWORD = 'password1234'

describe.each(await targets())('webhook delivery survives SIGKILL on %s', (target) => {
  const cleanups: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c()
  })

  it('delivers every committed change at least once', async () => {
    let env: Record<string, string>
    let database: Database
    if (target === 'postgres') {
      const pgdb = await createPostgresDatabase()
      cleanups.push(() => pgdb.drop())
      env = { DATABASE_URL: pgdb.url }
      database = await openPostgres(pgdb.url)
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-crash-'))
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }))
      env = { DATABASE_URL: '', DATA_DIR: dir }
      database = await openEmbedded(dir)
    }
    await migrateToLatest(database)
    await createOrganizationWithAdmin(database.db, { name: 'Crash', adminEmail: EMAIL, adminPassword: PASSWORD })
    await database.close()

    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    let child: ChildService | null = null
    const start = async () => {
      child = await spawnService({ ...env, PORT: String(port), PUBLIC_URL: base, ALLOW_PRIVATE_OUTBOUND: 'true' })
    }
    const kill = () => child!.kill('SIGKILL')
    cleanups.push(async () => {
      await child?.kill('SIGKILL')
    })

    await start()
    const cookie = await signIn(base, EMAIL, PASSWORD)
    const csrf = (await (await fetch(`${base}/api/v1/me`, { headers: { cookie } })).json()).csrf_token
    const headers = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }
    const hook = await fetch(`${base}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url, events: ['account.created'], secret: SECRET }) })
    expect(hook.status).toBe(201)

    // Writers run throughout; a request that fails because the process died may or may not have
    // committed, so the truth is what the database holds at the end, not what the writers saw.
    let writing = true
    let attempted = 0
    const writer = async (w: number) => {
      while (writing) {
        attempted++
        try {
          await fetch(`${base}/api/v1/accounts`, { method: 'POST', headers, body: JSON.stringify({ name: `w${w}-${attempted}` }) })
        } catch {
          await new Promise((r) => setTimeout(r, 30))
        }
      }
    }
    const writers = [writer(1), writer(2), writer(3)]
    for (let round = 0; round < 3; round++) {
      await new Promise((r) => setTimeout(r, 600 + Math.random() * 900))
      await kill()
      await start()
    }
    await new Promise((r) => setTimeout(r, 500))
    writing = false
    await Promise.all(writers)

    const committed = new Set<string>()
    let cursor: string | null = null
    do {
      const page: any = await (await fetch(`${base}/api/v1/accounts?limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers })).json()
      for (const a of page.data) committed.add(a.id)
      cursor = page.next_cursor
    } while (cursor)
    expect(committed.size).toBeGreaterThan(30)

    // Deliveries a killed process had claimed come due again when their lease (15 s) runs out.
    const verifier = new Webhook(SECRET, { format: 'raw' })
    const delivered = new Set<string>()
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      for (const r of receiver.received.splice(0)) {
        verifier.verify(r.body, r.headers)
        delivered.add(JSON.parse(r.body).data.object.id)
      }
      if ([...committed].every((id) => delivered.has(id))) break
      await new Promise((r) => setTimeout(r, 100))
    }
    const missing = [...committed].filter((id) => !delivered.has(id))
    expect(missing, `${missing.length} of ${committed.size} committed changes were never delivered`).toEqual([])
    // Nothing was delivered that did not commit.
    expect([...delivered].filter((id) => !committed.has(id))).toEqual([])
  }, 150_000)
})
