/**
 * The spec's paging rules as a property (fast-check): for random interleavings of inserts, deletes
 * (including the very record a cursor names) and page fetches, every record that existed throughout
 * the listing appears exactly once, nothing appears twice, order is newest first, and pages respect
 * `limit`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'
import { buildTestApp, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'

type Op = { t: 'insert'; n: number } | { t: 'delete'; pick: number; cursorRecord: boolean } | { t: 'page' }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('insert' as const), n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ t: fc.constant('delete' as const), pick: fc.nat(), cursorRecord: fc.boolean() }),
  fc.record({ t: fc.constant('page' as const) }),
)

describe.each(await targets())('keyset paging (property) on %s', (target) => {
  let tdb: TestDatabase
  let app: FastifyInstance
  let admin: Member

  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    app = await buildTestApp(tdb.database)
    admin = await createOrgWithAdmin(app)
  })
  afterAll(async () => {
    await app?.close()
    await tdb?.drop()
  })

  async function insert(n: number): Promise<string[]> {
    const ids: string[] = []
    for (let i = 0; i < n; i++) {
      const res = await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: `acc ${i}` } })
      ids.push(json(res).id)
    }
    return ids
  }

  it('never duplicates or skips records that existed throughout', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 1, max: 6 }), fc.array(opArb, { maxLength: 20 }), async (initial, limit, ops) => {
        await app.db.deleteFrom('accounts' as never).execute()
        const before = await insert(initial)
        const alive = new Set(before)
        const deleted = new Set<string>()
        const seen: string[] = []
        let cursor: string | null = null
        let done = false

        const fetchPage = async () => {
          const url = `/api/v1/accounts?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`
          const res = await admin.request({ method: 'GET', url })
          expect(res.statusCode).toBe(200)
          const page = json(res)
          expect(page.data.length).toBeLessThanOrEqual(limit)
          expect(page.has_more).toBe(page.next_cursor !== null)
          for (const r of page.data) {
            // A record deleted before this fetch must not come back.
            expect(deleted.has(r.id)).toBe(false)
            seen.push(r.id)
          }
          if (page.has_more) expect(page.next_cursor).toBe(page.data[page.data.length - 1].id)
          cursor = page.next_cursor
          done = !page.has_more
        }

        for (const op of ops) {
          if (done) break
          if (op.t === 'insert') (await insert(op.n)).forEach((id) => alive.add(id))
          else if (op.t === 'page') await fetchPage()
          else {
            const candidates = [...alive]
            if (candidates.length === 0) continue
            const victim = op.cursorRecord && cursor && alive.has(cursor) ? cursor : candidates[op.pick % candidates.length]
            const res = await admin.request({ method: 'DELETE', url: `/api/v1/accounts/${victim}` })
            expect(res.statusCode).toBe(204)
            alive.delete(victim)
            deleted.add(victim)
          }
        }
        while (!done) await fetchPage()

        expect(new Set(seen).size).toBe(seen.length) // no duplicates
        const throughout = before.filter((id) => !deleted.has(id))
        for (const id of throughout) expect(seen).toContain(id) // no gaps
        const sorted = [...seen].sort().reverse()
        expect(seen).toEqual(sorted) // newest first (UUIDv7 order = created_at, id)
      }),
      { numRuns: target === 'pglite' ? 25 : 40, endOnFailure: true },
    )
  }, 240_000)
})
