/**
 * The change feed (GET /api/v1/events): seq numbers per organization, dense and in order; paging
 * with `after` and `next_after`; type filters; scopes; 410 past the retention period; and the rule
 * that makes polling lossless: numbers are given after commit, so an event that commits late still
 * gets a number above everything a reader has seen (docs/webhooks.md, The change feed).
 */
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { api, oauthHarnessPerFile, obtainTokens, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'
import { pruneEvents, sequencePending } from '../../src/events/index.ts'
import { journalEvents } from '../../src/events/journal-writer.ts'

/** Events written straight to the journal, as a test's own author. */
const testAuthor = { actor: { user_id: null, client_id: null, channel: 'system' as const }, operationId: '01900000-0000-7000-8000-000000000000' }
import { uuidv7 } from '../../src/shared/ids.ts'
import { openPostgres } from '../../src/db/connect.ts'
import { jsonHoldsAmount } from '../helpers/json-values.ts'

describe.each(await targets())('change feed on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))

  async function create(kindPath: string, body: Record<string, unknown>, m: Member = admin) {
    const res = await m.request({ method: 'POST', url: `/api/v1/${kindPath}`, payload: body })
    expect(res.statusCode, res.body).toBe(201)
    return json(res)
  }

  async function feed(query: string, m: Member = admin) {
    return m.request({ method: 'GET', url: `/api/v1/events${query}` })
  }

  /** Every event after `after`, following next_after until a page is not full. */
  async function readAll(after: number | null, limit: number, extra = '', m: Member = admin): Promise<any[]> {
    const out: any[] = []
    let position = after
    for (;;) {
      const res = await feed(`?limit=${limit}${position === null ? '' : `&after=${position}`}${extra}`, m)
      expect(res.statusCode, res.body).toBe(200)
      const page = json(res)
      out.push(...page.data)
      position = page.next_after
      if (!page.has_more) return out
    }
  }

  it('numbers each organization\'s events 1, 2, 3, ... in the order of the changes, paged by after', async () => {
    const a = await create('accounts', { name: 'A' })
    await admin.request({ method: 'PATCH', url: `/api/v1/accounts/${a.id}`, payload: { name: 'A2' } })
    const o = await create('opportunities', { name: 'Deal', stage: 'prospecting' })
    await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${o.id}`, payload: { stage: 'proposal' } })
    await admin.request({ method: 'DELETE', url: `/api/v1/accounts/${a.id}` })
    await sequencePending(h.app.db)
    const events = await readAll(null, 2)
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6])
    expect(events.map((e) => e.type)).toEqual(['account.created', 'account.updated', 'opportunity.created', 'opportunity.updated', 'opportunity.stage_changed', 'account.deleted'])
    expect(Object.keys(events[0])).toEqual(['id', 'seq', 'type', 'timestamp', 'organization_id', 'actor', 'operation_id', 'data'])
    expect(events[4].data.previous).toEqual({ stage: 'prospecting' })
    // Polling from the end answers an empty page that keeps the position.
    const tail = json(await feed('?after=6'))
    expect(tail).toEqual({ data: [], has_more: false, next_after: 6 })
    // Another organization counts from 1 and never sees these.
    const other = await createOrgWithAdmin(h.app, 'Other')
    await create('contacts', { last_name: 'Lee' }, other)
    await sequencePending(h.app.db)
    const theirs = await readAll(null, 50, '', other)
    expect(theirs.map((e) => [e.seq, e.type])).toEqual([[1, 'contact.created']])
  })

  it('filters by type and moves next_after past what the filter skipped', async () => {
    await create('accounts', { name: 'A' })
    await create('contacts', { last_name: 'B' })
    await create('accounts', { name: 'C' })
    await create('contacts', { last_name: 'D' })
    await sequencePending(h.app.db)
    const page = json(await feed('?types=account.created&limit=10'))
    expect(page.data.map((e: any) => [e.seq, e.data.object.name])).toEqual([[1, 'A'], [3, 'C']])
    expect(page.next_after).toBe(4)
    const bad = await feed('?types=account.created,account.exploded')
    expect(bad.statusCode).toBe(400)
    expect(json(bad).errors[0].field).toBe('types')
  })

  it('reads newest first with order=desc and before, and tells where to poll from', async () => {
    for (const name of ['A', 'B', 'C', 'D', 'E']) await create('accounts', { name })
    await sequencePending(h.app.db)
    const first = json(await feed('?order=desc&limit=2'))
    expect(first.data.map((e: any) => e.seq)).toEqual([5, 4])
    expect(first).toMatchObject({ has_more: true, next_before: 4, next_after: 5 })
    const second = json(await feed(`?order=desc&limit=2&before=${first.next_before}`))
    expect(second.data.map((e: any) => e.seq)).toEqual([3, 2])
    const last = json(await feed('?order=desc&limit=2&before=2'))
    expect(last).toMatchObject({ has_more: false, next_before: null })
    expect(last.data.map((e: any) => e.seq)).toEqual([1])
    expect((await feed('?order=desc&after=1')).statusCode).toBe(400)
    expect((await feed('?before=3')).statusCode).toBe(400)
  })

  it('shapes events for a token without erp:read, and needs crm:read', async () => {
    const o = await create('opportunities', { name: 'Deal', amount: '9999.00' })
    await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${o.id}`, payload: { amount: '7777.00' } })
    await sequencePending(h.app.db)
    const token = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
    const res = await api(h.app, token, { url: '/api/v1/events' })
    expect(res.statusCode, res.body).toBe(200)
    expect(jsonHoldsAmount(res.body, 9999)).toBe(false)
    expect(jsonHoldsAmount(res.body, 7777)).toBe(false)
    expect(json(res).data.map((e: any) => e.seq)).toEqual([1, 2])
    const writeOnly = (await obtainTokens(h.app, admin, client, { scope: 'crm:write' })).access_token
    expect((await api(h.app, writeOnly, { url: '/api/v1/events' })).statusCode).toBe(403)
  })

  it('answers 410 with the oldest seq held for an after older than the retention, 400 beyond the newest', async () => {
    for (const name of ['A', 'B', 'C']) await create('accounts', { name })
    await sequencePending(h.app.db)
    await sql`UPDATE events SET occurred_at = now() - interval '40 days' WHERE seq <= 2`.execute(h.app.db)
    await pruneEvents(h.app.db, new Date(), 30)
    const gone = await feed('?after=1')
    expect(gone.statusCode).toBe(410)
    expect(json(gone)).toMatchObject({ code: 'events_expired', oldest_seq: 3 })
    expect(gone.headers['content-type']).toContain('application/problem+json')
    expect((await readAll(2, 10)).map((e) => e.seq)).toEqual([3])
    expect((await readAll(null, 10)).map((e) => e.seq)).toEqual([3])
    const ahead = await feed('?after=4')
    expect(ahead.statusCode).toBe(400)
    expect(json(ahead).errors[0].field).toBe('after')
  })

  it('loses no event to concurrent writers while several readers poll', async () => {
    const readers = 3
    const seen: number[][] = Array.from({ length: readers }, () => [])
    let writing = true
    const poll = async (mine: number[]) => {
      let after = 0
      for (;;) {
        const stop = !writing
        const res = await feed(`?after=${after}&limit=37`)
        expect(res.statusCode, res.body).toBe(200)
        const page = json(res)
        mine.push(...page.data.map((e: any) => e.seq))
        after = page.next_after
        if (stop && !page.has_more) {
          // Writers are done: wait for the sequencer to number the last of them, then read to the end.
          const pending = await sql<{ n: number }>`SELECT count(*)::int AS n FROM events WHERE seq IS NULL`.execute(h.app.db)
          if (pending.rows[0].n === 0 && !json(await feed(`?after=${after}`)).data.length) return
        }
        await new Promise((r) => setTimeout(r, 3))
      }
    }
    const polling = seen.map((mine) => poll(mine))
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < 15; i++) {
        if (i % 5 === 4) {
          const res = await admin.request({ method: 'POST', url: '/api/v1/contacts/batch', payload: { operation: 'create', records: [{ last_name: `b${w}-${i}a` }, { last_name: `b${w}-${i}b` }] } })
          expect(res.statusCode, res.body).toBeLessThan(300)
        } else {
          const rec = await create('accounts', { name: `w${w}-${i}` })
          if (i % 2 === 0) await admin.request({ method: 'PATCH', url: `/api/v1/accounts/${rec.id}`, payload: { name: `w${w}-${i}!` } })
        }
      }
    })
    await Promise.all(writers)
    writing = false
    await Promise.all(polling)
    const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM events`.execute(h.app.db)).rows[0].n
    expect(total).toBe(8 * (12 + 6 + 3 * 2))
    const everything = Array.from({ length: total }, (_, i) => i + 1)
    for (const mine of seen) expect(mine).toEqual(everything)
  })

  // PGlite has one connection: its transactions cannot interleave, so this race exists only on PostgreSQL.
  if (target === 'postgres') it('gives an event that commits late a number above those a reader already saw', async () => {
    // Two writing transactions on their own connections: A writes first and commits last.
    const writerA = await openPostgres(h.tdb.url!)
    const writerB = await openPostgres(h.tdb.url!)
    try {
      const event = (name: string) => {
        const id = uuidv7(new Date())
        const body = JSON.stringify({ id, type: 'account.created', timestamp: new Date().toISOString(), organization_id: admin.orgId, data: { object: { id: uuidv7(new Date()), name } } })
        return { id, type: 'account.created', recordId: uuidv7(new Date()), body, redactedBody: body }
      }
      let releaseA!: () => void
      let aCommitted!: Promise<void>
      const aWrote = new Promise<void>((wrote) => {
        aCommitted = writerA.db.transaction().execute(async (trx) => {
          await journalEvents(trx, admin.orgId, testAuthor, [event('late')], new Date(), [])
          wrote()
          await new Promise<void>((r) => (releaseA = r))
        })
      })
      await aWrote
      await writerB.db.transaction().execute((trx) => journalEvents(trx, admin.orgId, testAuthor, [event('early')], new Date(), []).then(() => undefined))
      await sequencePending(h.app.db)
      const first = json(await feed('?after=0'))
      expect(first.data.map((e: any) => [e.seq, e.data.object.name])).toEqual([[1, 'early']])
      releaseA()
      // Waits for A's commit itself: a fixed pause was too short under a loaded machine's full suite.
      await aCommitted
      await sequencePending(h.app.db)
      const second = json(await feed(`?after=${first.next_after}`))
      expect(second.data.map((e: any) => [e.seq, e.data.object.name])).toEqual([[2, 'late']])

      // The naive rule on the same interleaving: a number taken inside the writing transaction
      // (here a sequence) and `seq > after` skips the event that committed late.
      await sql`CREATE TEMP SEQUENCE IF NOT EXISTS naive_seq`.execute(h.app.db)
      await sql`CREATE TABLE naive_events (seq bigint, name text)`.execute(h.app.db)
      let releaseC!: () => void
      let cCommitted!: Promise<void>
      const cWrote = new Promise<void>((wrote) => {
        cCommitted = writerA.db.transaction().execute(async (trx) => {
          await sql`INSERT INTO naive_events VALUES (1, 'late')`.execute(trx)
          wrote()
          await new Promise<void>((r) => (releaseC = r))
        })
      })
      await cWrote
      await sql`INSERT INTO naive_events VALUES (2, 'early')`.execute(writerB.db)
      const naiveFirst = await sql<{ seq: string }>`SELECT seq FROM naive_events WHERE seq > 0 ORDER BY seq`.execute(h.app.db)
      expect(naiveFirst.rows.map((r) => Number(r.seq))).toEqual([2])
      releaseC()
      await cCommitted
      const naiveSecond = await sql<{ seq: string }>`SELECT seq FROM naive_events WHERE seq > 2 ORDER BY seq`.execute(h.app.db)
      expect(naiveSecond.rows).toEqual([]) // seq 1 committed, and no reader polling after=2 ever sees it
      expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM naive_events`.execute(h.app.db)).rows[0].n).toBe(2)
      await sql`DROP TABLE naive_events`.execute(h.app.db)
    } finally {
      await writerA.close()
      await writerB.close()
    }
  })
})
