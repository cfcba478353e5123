/**
 * The change feed when bulk writes number their own events (an import page, a batch: under the
 * organization's journal counter lock, in the writing transaction) while single-record writes are
 * numbered after their commit by the sequencer (src/events/sequencer.ts). Two CSV imports (one
 * creating, several pages in flight on PostgreSQL; one updating by email), batches and single
 * writes run at once in one organization while readers poll `GET /api/v1/events?after=`: every
 * reader must see 1..n exactly once, and each record's events must be numbered in the order its
 * changes happened (single writes and the updating import change the same contacts).
 */
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { startImport } from '../imports/helpers.ts'

/** Contacts the single writers and the updating import both change. */
const SHARED = 200
/** Rows of the creating import: three pages and a part. */
const CREATED = 3400

describe.each(await targets())('change feed with bulk writes numbering their own events on %s', (target) => {
  const ctx = appPerFile(target)

  it('loses, repeats and reorders nothing while imports, batches and single writes run together', async () => {
    const admin: Member = await createOrgWithAdmin(ctx.app)
    const feed = (query: string) => admin.request({ method: 'GET', url: `/api/v1/events${query}` })
    const shared: string[] = []
    for (let i = 0; i < SHARED; i += 50) {
      const res = await admin.request({ method: 'POST', url: '/api/v1/contacts/batch', payload: { operation: 'create', records: Array.from({ length: 50 }, (_, j) => ({ last_name: `S${i + j}`, email: `s${i + j}@shared.test` })) } })
      expect(res.statusCode, res.body).toBe(200)
      shared.push(...json(res).data.map((r: { id: string }) => r.id))
    }

    let writing = true
    const seen: number[][] = [[], [], []]
    const poll = async (mine: number[]) => {
      let after = 0
      for (;;) {
        const stop = !writing
        const res = await feed(`?after=${after}&limit=500`)
        expect(res.statusCode, res.body).toBe(200)
        const page = json(res)
        mine.push(...page.data.map((e: { seq: number }) => e.seq))
        after = page.next_after
        if (stop && !page.has_more) {
          const pending = await sql<{ n: number }>`SELECT count(*)::int AS n FROM events WHERE seq IS NULL`.execute(ctx.app.db)
          if (pending.rows[0].n === 0 && !json(await feed(`?after=${after}`)).data.length) return
        }
        await new Promise((r) => setTimeout(r, 5))
      }
    }
    const polling = seen.map((mine) => poll(mine))

    const creating = `Last Name,E-mail\r\n${Array.from({ length: CREATED }, (_, i) => `N${i},n${i}@new.test`).join('\r\n')}\r\n`
    const updating = `E-mail,Title\r\n${Array.from({ length: SHARED }, (_, i) => `s${i}@shared.test,imported ${i}`).join('\r\n')}\r\n`
    const imports: string[] = []
    for (const [parts, csv] of [[{ kind: 'contacts' }, creating], [{ kind: 'contacts', dedupe_by: 'email' }, updating]] as const) {
      const res = await startImport(admin, parts, csv)
      expect(res.statusCode, res.body).toBe(202)
      imports.push(json(res).id)
    }
    // Single writes (and small batches) go on until both imports have finished, so they meet
    // every page of both.
    let importing = true
    let patches = 0
    let batches = 0
    const singles = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; importing; i++) {
        const id = shared[(w * 37 + i * 11) % SHARED]
        const patched = await admin.request({ method: 'PATCH', url: `/api/v1/contacts/${id}`, payload: { title: `single ${w}-${i}` } })
        expect(patched.statusCode, patched.body).toBe(200)
        patches++
        if (i % 10 === 9) {
          const batch = await admin.request({ method: 'POST', url: '/api/v1/accounts/batch', payload: { operation: 'create', records: [{ name: `b${w}-${i}a` }, { name: `b${w}-${i}b` }] } })
          expect(batch.statusCode, batch.body).toBe(200)
          batches++
        }
      }
    })
    for (const id of imports) {
      const deadline = Date.now() + 120_000
      let view: { status: string }
      do {
        await new Promise((r) => setTimeout(r, 50))
        view = json(await admin.request({ url: `/api/v1/imports/${id}` }))
      } while (['queued', 'running'].includes(view.status) && Date.now() < deadline)
      expect(view.status).toBe('completed')
    }
    importing = false
    await Promise.all(singles)
    writing = false
    await Promise.all(polling)

    const events = (await sql<{ seq: string; id: string; record_id: string }>`SELECT seq, id, record_id FROM events WHERE org_id = ${admin.orgId} ORDER BY seq`.execute(ctx.app.db)).rows
    // Batches of shared contacts, the creating import, the updating import, the single writes and their batches.
    expect(events).toHaveLength(SHARED + CREATED + SHARED + patches + 2 * batches)
    const everything = Array.from({ length: events.length }, (_, i) => i + 1)
    expect(events.map((e) => Number(e.seq))).toEqual(everything)
    for (const mine of seen) expect(mine).toEqual(everything)
    // One record's events in seq order are in the order of its changes (UUIDv7 ids: their times,
    // minted while the change held the record's row lock).
    const byRecord = new Map<string, string[]>()
    for (const e of events) byRecord.set(e.record_id, [...(byRecord.get(e.record_id) ?? []), e.id])
    const outOfOrder = [...byRecord].filter(([, ids]) => ids.some((id, i) => i > 0 && id < ids[i - 1]))
    expect(outOfOrder).toEqual([])
  }, 180_000)
})
