/**
 * Readers that stop reading cannot take the service down (issue: four stalled readers of a large
 * change feed drove it out of memory). The real service runs as a child process on a journal of
 * about 100 MB; several raw connections open the change feed from the start and never read. The
 * service's resident memory must stay within a stated bound, /healthz must keep answering, and each
 * stalled connection must be closed once the stall limit has passed, before it was sent the journal.
 */
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.ts'
import { openEmbedded, openPostgres, type Database } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { createSession, SESSION_COOKIE } from '../../src/orgs/session.service.ts'
import { createPostgresDatabase, targets } from '../helpers/databases.ts'
import { testConfig } from '../helpers/build-app.ts'
import { freePort } from '../helpers/live-service.ts'
import { spawnService, type ChildService } from '../helpers/service-process.ts'

const EVENTS = 40_000
const DESCRIPTION = 'x'.repeat(2000)
const READERS = 6
const STALL_SECONDS = 4
/**
 * A stalled stream holds one page of events and the socket's buffer (docs/api.md); the rest of the
 * growth is the heap the readers' first megabytes passed through before their sockets filled. Before
 * back-pressure, each stalled reader buffered the whole journal: six grew it by more than 600 MB.
 */
const RSS_GROWTH_BOUND_MB = 96
/**
 * The embedded database answers the readers' pages inside the service's process, in WebAssembly
 * memory that grows in large steps and is never given back: one step can fall inside the window
 * (seen: 200 MB in one run of this file after the merges of 2026-11-28). Still far below the
 * 600 MB and more that six readers buffered before back-pressure.
 */
const EMBEDDED_RSS_GROWTH_BOUND_MB = 256

/** A journal of EVENTS account.created events of about 2.5 KB each, numbered 1..EVENTS. */
async function seedJournal(database: Database): Promise<{ cookie: string; journalBytes: number }> {
  await migrateToLatest(database)
  const { orgId, userId } = await createOrganizationWithAdmin(database.db, { name: 'Big journal', adminEmail: 'admin@example.test', adminPassword: 'correct horse battery' })
  const session = await createSession(database.db, userId, orgId, 3600)
  // One real event, written and numbered by the service itself, is the model of the rest.
  const app = await buildApp({ config: testConfig(), database, logger: false })
  await app.ready()
  const made = await app.inject({ method: 'POST', url: '/api/v1/accounts', cookies: { [SESSION_COOKIE]: session }, headers: { 'x-csrf-token': (await csrfOf(app, session)) }, payload: { name: 'Model', description: DESCRIPTION } })
  expect(made.statusCode).toBe(201)
  for (let i = 0; i < 100; i++) {
    const numbered = await sql<{ n: string }>`SELECT count(*) AS n FROM events WHERE org_id = ${orgId} AND seq IS NOT NULL`.execute(database.db)
    if (Number(numbered.rows[0].n) === 1) break
    await new Promise((r) => setTimeout(r, 50))
  }
  await app.close()
  await sql`INSERT INTO events (org_id, id, seq, type, record_id, occurred_at, body)
    SELECT e.org_id, gen_random_uuid(), e.seq + g, e.type, e.record_id, e.occurred_at, replace(e.body, CAST(e.id AS text), CAST(gen_random_uuid() AS text))
    FROM events e, generate_series(1, ${EVENTS - 1}) g WHERE e.org_id = ${orgId} AND e.seq = 1`.execute(database.db)
  await sql`UPDATE org_counters SET value = ${EVENTS} WHERE org_id = ${orgId} AND name = 'event_seq'`.execute(database.db)
  const size = await sql<{ bytes: string }>`SELECT sum(length(body)) AS bytes FROM events WHERE org_id = ${orgId}`.execute(database.db)
  return { cookie: `${SESSION_COOKIE}=${session}`, journalBytes: Number(size.rows[0].bytes) }
}

async function csrfOf(app: Awaited<ReturnType<typeof buildApp>>, session: string): Promise<string> {
  const me = await app.inject({ method: 'GET', url: '/api/v1/me', cookies: { [SESSION_COOKIE]: session } })
  return JSON.parse(me.body).csrf_token
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024
}

/** A connection that asks for the whole feed and then reads nothing. */
function stalledReader(port: number, cookie: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /api/v1/events/stream?after=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n\r\n`)
      socket.pause()
      resolve(socket)
    })
    socket.on('error', reject)
  })
}

/** Resumes a paused socket and counts what arrives until the server closes it. */
function drainUntilClosed(socket: net.Socket, withinMs: number): Promise<{ bytes: number; closed: boolean }> {
  return new Promise((resolve) => {
    let bytes = 0
    const timer = setTimeout(() => resolve({ bytes, closed: false }), withinMs)
    socket.removeAllListeners('error')
    socket.on('error', () => {})
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length))
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ bytes, closed: true })
    })
    socket.resume()
  })
}

async function healthz(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) })
  return res.status
}

describe.each(await targets())('stalled stream readers on %s', (target) => {
  let service: ChildService | null = null
  const cleanups: Array<() => Promise<void>> = []
  afterAll(async () => {
    await service?.kill()
    for (const c of cleanups) await c()
  })

  it(`keep the service's memory bounded, /healthz answering, and are disconnected after the stall limit`, async () => {
    const env: Record<string, string> = { STREAM_STALL_SECONDS: String(STALL_SECONDS), STREAMS_PER_CLIENT: '50', STREAMS_PER_ORG: '50', LOG_LEVEL: 'error' }
    let seeded: { cookie: string; journalBytes: number }
    if (target === 'postgres') {
      const created = await createPostgresDatabase()
      cleanups.push(created.drop)
      const database = await openPostgres(created.url)
      seeded = await seedJournal(database)
      await database.close()
      env.DATABASE_URL = created.url
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-stalled-'))
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }))
      const database = await openEmbedded(dir)
      seeded = await seedJournal(database)
      await database.close()
      env.DATA_DIR = dir
    }
    expect(seeded.journalBytes).toBeGreaterThan(90 * 1024 * 1024)

    const port = await freePort()
    service = await spawnService({ ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` })
    const pid = service.child.pid!
    // Warm the paths the readers take, so the baseline includes what any first request loads.
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/events?limit=100`, { headers: { cookie: seeded.cookie } })).status).toBe(200)
    const baseline = rssMb(pid)

    const readers = await Promise.all(Array.from({ length: READERS }, () => stalledReader(port, seeded.cookie)))
    let peak = baseline
    const statuses: number[] = []
    // Through the whole stall: until the limit has passed and the connections were closed.
    const until = Date.now() + (STALL_SECONDS + 3) * 1000
    while (Date.now() < until) {
      peak = Math.max(peak, rssMb(pid))
      statuses.push(await healthz(port).catch(() => 0))
      await new Promise((r) => setTimeout(r, 250))
    }
    expect(statuses.every((s) => s === 200)).toBe(true)
    expect(peak - baseline).toBeLessThan(target === 'postgres' ? RSS_GROWTH_BOUND_MB : EMBEDDED_RSS_GROWTH_BOUND_MB)

    // Past the stall limit each connection is closed, long before the journal could have reached it.
    const drained = await Promise.all(readers.map((socket) => drainUntilClosed(socket, 10_000)))
    console.log(`RSS ${baseline.toFixed(0)} MB at rest, ${peak.toFixed(0)} MB at peak with ${READERS} stalled readers`)
    for (const d of drained) {
      expect(d.closed).toBe(true)
      expect(d.bytes).toBeLessThan(seeded.journalBytes / 2)
    }
    expect(await healthz(port)).toBe(200)
    // The slots were freed: a new reader is served.
    const fresh = await fetch(`http://127.0.0.1:${port}/api/v1/events/stream?after=${EVENTS - 1}`, { headers: { cookie: seeded.cookie }, signal: AbortSignal.timeout(5000) })
    expect(fresh.status).toBe(200)
    await fresh.body?.cancel()
  }, 300_000)
})
