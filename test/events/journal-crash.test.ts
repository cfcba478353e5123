/**
 * The journal across crashes: the service runs as a child process while records are written and
 * changed continuously and a reader polls the change feed; the service is killed with SIGKILL ten
 * times and restarted. Every change that committed must be in the feed exactly once, the feed must
 * stay gapless (1..n), and the reader, resuming after each crash from the last seq it saw, must end
 * with exactly that sequence: nothing lost, nothing repeated, nothing reordered. An endpoint with
 * `ordering: "per_record"` must receive each record's events in order (a repeat of an event whose
 * success a killed process never recorded is allowed; the next event never comes before it).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createPostgresDatabase, targets } from '../helpers/databases.ts'
import { freePort, signIn } from '../helpers/live-service.ts'
import { spawnService, type ChildService } from '../helpers/service-process.ts'
import { openEmbedded, openPostgres, type Database } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { startReceiver } from '../webhooks/receiver.ts'

const EMAIL = 'journal-crash@example.test'
const PASSWORD = 'password1234'
const RESTARTS = 10

describe.each(await targets())('the event journal survives SIGKILL on %s', (target) => {
  const cleanups: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c()
  })

  it(`keeps every committed change exactly once and in order over ${RESTARTS} kills`, async () => {
    let env: Record<string, string>
    let database: Database
    if (target === 'postgres') {
      const pgdb = await createPostgresDatabase()
      cleanups.push(() => pgdb.drop())
      env = { DATABASE_URL: pgdb.url }
      database = await openPostgres(pgdb.url)
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-journal-crash-'))
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }))
      env = { DATABASE_URL: '', DATA_DIR: dir }
      database = await openEmbedded(dir)
    }
    await migrateToLatest(database)
    await createOrganizationWithAdmin(database.db, { name: 'Journal crash', adminEmail: EMAIL, adminPassword: PASSWORD })
    await database.close()

    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    let child: ChildService | null = null
    const start = async () => {
      child = await spawnService({ ...env, PORT: String(port), PUBLIC_URL: base, ALLOW_PRIVATE_OUTBOUND: 'true' })
    }
    cleanups.push(async () => {
      await child?.kill('SIGKILL')
    })
    await start()
    const cookie = await signIn(base, EMAIL, PASSWORD)
    const csrf = (await (await fetch(`${base}/api/v1/me`, { headers: { cookie } })).json()).csrf_token
    const headers = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }
    const receiver = await startReceiver('/ordered')
    cleanups.push(() => receiver.close())
    const hook = await fetch(`${base}/api/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: receiver.url, events: ['account.created', 'account.updated'], ordering: 'per_record' }),
    })
    expect(hook.status).toBe(201)

    // Writers create accounts and rename each once; a request cut by a kill may or may not have
    // committed, so the truth is what the database holds at the end.
    let writing = true
    let n = 0
    const writer = async (w: number) => {
      while (writing) {
        try {
          const res = await fetch(`${base}/api/v1/accounts`, { method: 'POST', headers, body: JSON.stringify({ name: `w${w}-${++n}` }) })
          if (res.status === 201) {
            const { id } = await res.json()
            await fetch(`${base}/api/v1/accounts/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ name: `w${w}-${n}-renamed` }) })
          }
        } catch {
          await new Promise((r) => setTimeout(r, 30))
        }
      }
    }
    // The reader polls throughout, resuming from the last seq it saw whenever the service is back.
    const seen: { seq: number; id: string; type: string; record: string }[] = []
    let reading = true
    const reader = async () => {
      while (reading) {
        try {
          const after = seen.length > 0 ? seen[seen.length - 1].seq : 0
          const res = await fetch(`${base}/api/v1/events?after=${after}&limit=200`, { headers })
          if (res.status === 200) {
            const page = await res.json()
            for (const e of page.data) seen.push({ seq: e.seq, id: e.id, type: e.type, record: e.data.object.id })
            if (page.has_more) continue
          }
        } catch {
          // the service is down; try again in a moment
        }
        await new Promise((r) => setTimeout(r, 20))
      }
    }
    const writers = [writer(1), writer(2), writer(3)]
    const reading1 = reader()
    for (let round = 0; round < RESTARTS; round++) {
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 500))
      await child!.kill('SIGKILL')
      await start()
    }
    await new Promise((r) => setTimeout(r, 300))
    writing = false
    await Promise.all(writers)

    // What committed: every account, and whether its rename did.
    const accounts = new Map<string, string>()
    let cursor: string | null = null
    do {
      const page: any = await (await fetch(`${base}/api/v1/accounts?limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers })).json()
      for (const a of page.data) accounts.set(a.id, a.name)
      cursor = page.next_cursor
    } while (cursor)
    expect(accounts.size).toBeGreaterThan(50)
    const expected = [...accounts].reduce((sum, [, name]) => sum + (name.endsWith('-renamed') ? 2 : 1), 0)

    // The feed settles once the restarted sequencer has numbered everything that committed.
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline && (seen.length < expected || (seen.length > 0 && seen[seen.length - 1].seq < expected))) await new Promise((r) => setTimeout(r, 100))
    reading = false
    await reading1

    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: expected }, (_, i) => i + 1))
    expect(new Set(seen.map((e) => e.id)).size).toBe(expected)
    const created = new Set(seen.filter((e) => e.type === 'account.created').map((e) => e.record))
    expect([...accounts.keys()].filter((id) => !created.has(id))).toEqual([])
    // One record's events keep their order: created before updated.
    const position = new Map(seen.map((e, i) => [`${e.record}:${e.type}`, i]))
    for (const [id, name] of accounts) if (name.endsWith('-renamed')) expect(position.get(`${id}:account.created`)!).toBeLessThan(position.get(`${id}:account.updated`)!)

    // The ordered endpoint: every event once at least, and per record never the update before the
    // creation has been received. Deliveries a killed process had claimed come back after their lease.
    const deliveryDeadline = Date.now() + 90_000
    const distinct = () => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size
    while (distinct() < expected && Date.now() < deliveryDeadline) await new Promise((r) => setTimeout(r, 200))
    expect(distinct()).toBe(expected)
    const firstReceipt = new Map<string, number>()
    receiver.received.forEach((r, i) => {
      const body = JSON.parse(r.body)
      const key = `${body.data.object.id}:${body.type}`
      if (!firstReceipt.has(key)) firstReceipt.set(key, i)
    })
    for (const [id, name] of accounts) {
      if (name.endsWith('-renamed')) expect(firstReceipt.get(`${id}:account.created`)!, id).toBeLessThan(firstReceipt.get(`${id}:account.updated`)!)
    }
  }, 360_000)
})
