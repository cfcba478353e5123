/**
 * The spec's paging rules as properties (fast-check). Default order: for random interleavings of
 * inserts, deletes (including the very record a cursor names) and page fetches, every record that
 * existed throughout the listing appears exactly once, nothing appears twice, order is newest first,
 * and pages respect `limit`. Under a random `sort`, with updates too (docs/api.md, Lists): unless a
 * cursor record changed its sort value between being served and being used, every record that
 * existed throughout and kept its sort value appears, and only records whose value changed may
 * appear twice; each page is in order, NULLs last; every listing ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'
import { buildTestApp, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { OPPORTUNITY_STAGES } from '../../src/records/contracts.ts'

type Op = { t: 'insert'; n: number } | { t: 'delete'; pick: number; cursorRecord: boolean } | { t: 'page' }
type Values = { name: string; amount: string | null; close_date: string | null; stage: string }
type SortedOp = Op | { t: 'update'; pick: number; cursorRecord: number; values: Partial<Values> }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('insert' as const), n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ t: fc.constant('delete' as const), pick: fc.nat(), cursorRecord: fc.boolean() }),
  fc.record({ t: fc.constant('page' as const) }),
)

// Few distinct values, so ties and NULLs are common. Lowercase letters sort alike in every collation.
const valuesArb: fc.Arbitrary<Values> = fc.record({
  name: fc.constantFrom('a', 'b', 'c'),
  amount: fc.constantFrom(null, '1.00', '2.00', '3.00'),
  close_date: fc.constantFrom(null, '2026-01-01', '2026-01-02'),
  stage: fc.constantFrom('prospecting', 'proposal', 'closed_won'),
})
const SORTS = ['created_at', '-created_at', 'updated_at', '-updated_at', 'name', '-name', 'amount', '-amount', 'close_date', '-close_date', 'stage', '-stage'] as const
const sortedOpArb: fc.Arbitrary<SortedOp> = fc.oneof(
  fc.record({ t: fc.constant('insert' as const), n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ t: fc.constant('delete' as const), pick: fc.nat(), cursorRecord: fc.boolean() }),
  // cursorRecord 0 (one update in four) changes the record the next page starts from.
  fc.record({ t: fc.constant('update' as const), pick: fc.nat(), cursorRecord: fc.nat(3), values: valuesArb.chain((v) => fc.subarray(Object.keys(v)).map((keys) => Object.fromEntries(keys.map((k) => [k, v[k as keyof Values]])))) }),
  fc.record({ t: fc.constant('page' as const) }),
)

/** List order of two served records under `sort`: value (NULLs last either way), then id, both in the sort's direction. */
function compareServed(sort: string, a: Record<string, any>, b: Record<string, any>): number {
  const desc = sort.startsWith('-')
  const field = desc ? sort.slice(1) : sort
  // Amounts by number; stages in pipeline order (their definition's), not alphabetically.
  const key = (r: Record<string, any>) =>
    field === 'amount' && r.amount !== null ? Number(r.amount) : field === 'stage' && r.stage !== null ? OPPORTUNITY_STAGES.indexOf(r.stage) : r[field]
  const [x, y] = [key(a), key(b)]
  if (x !== y) {
    if (x === null) return 1
    if (y === null) return -1
    return (x < y ? -1 : 1) * (desc ? -1 : 1)
  }
  return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * (desc ? -1 : 1)
}

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
  it('under any sort, with concurrent inserts, updates and deletes, skips nothing and repeats only what moved', async () => {
    const create = async (values: Values) => {
      const res = await admin.request({ method: 'POST', url: '/api/v1/opportunities', payload: values })
      expect(res.statusCode, res.body).toBe(201)
      return json(res).id as string
    }
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SORTS),
        fc.array(valuesArb, { maxLength: 20 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(sortedOpArb, { maxLength: 24 }),
        fc.array(valuesArb, { minLength: 3, maxLength: 3 }),
        async (sort, initial, limit, ops, fresh) => {
          await app.db.deleteFrom('opportunities' as never).execute()
          const field = sort.replace('-', '')
          const before: string[] = []
          for (const v of initial) before.push(await create(v))
          const alive = new Set(before)
          const deleted = new Set<string>()
          // Records whose sort value may have changed while we paged; whether a cursor did so after being served.
          const moved = new Set<string>()
          let cursorMoved = false
          let pages = 0
          const seen: string[] = []
          let cursor: string | null = null
          let lastServed: Record<string, any> | null = null
          let done = false

          const fetchPage = async () => {
            // Every page starts strictly after the previous one's end, so a listing always ends.
            expect(++pages).toBeLessThan(200)
            const url = `/api/v1/opportunities?sort=${sort}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`
            const res = await admin.request({ method: 'GET', url })
            expect(res.statusCode, res.body).toBe(200)
            const page = json(res)
            expect(page.data.length).toBeLessThanOrEqual(limit)
            expect(page.has_more).toBe(page.next_cursor !== null)
            for (const r of page.data) expect(deleted.has(r.id)).toBe(false)
            for (let i = 1; i < page.data.length; i++) expect(compareServed(sort, page.data[i - 1], page.data[i]), url).toBeLessThan(0)
            // Across pages the order holds too, when the cursor record stayed where it was served.
            if (lastServed && cursor && !moved.has(cursor) && page.data.length > 0) expect(compareServed(sort, lastServed, page.data[0]), url).toBeLessThan(0)
            seen.push(...page.data.map((r: any) => r.id))
            if (page.has_more) expect(page.next_cursor).toBe(page.data[page.data.length - 1].id)
            lastServed = page.data[page.data.length - 1] ?? null
            cursor = page.next_cursor
            done = !page.has_more
          }

          for (const op of ops) {
            if (done) break
            if (op.t === 'insert') for (let i = 0; i < op.n; i++) alive.add(await create(fresh[i]))
            else if (op.t === 'page') await fetchPage()
            else {
              const candidates = [...alive]
              if (candidates.length === 0) continue
              const onCursor = op.t === 'delete' ? op.cursorRecord : op.cursorRecord === 0
              const victim: string = onCursor && cursor && alive.has(cursor) ? cursor : candidates[op.pick % candidates.length]
              if (op.t === 'delete') {
                expect((await admin.request({ method: 'DELETE', url: `/api/v1/opportunities/${victim}` })).statusCode).toBe(204)
                alive.delete(victim)
                deleted.add(victim)
              } else {
                if (Object.keys(op.values).length === 0) continue
                const res = await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${victim}`, payload: op.values })
                expect(res.statusCode, res.body).toBe(200)
                if (field === 'updated_at' || field in op.values) {
                  moved.add(victim)
                  if (victim === cursor && field !== 'created_at') cursorMoved = true
                }
              }
            }
          }
          while (!done) await fetchPage()

          // A cursor that moved after being served continues from where it is now: records between its
          // two places are skipped or repeated (docs/api.md, Lists). Otherwise nothing is.
          if (cursorMoved) return
          for (const id of before) if (!deleted.has(id) && !moved.has(id)) expect(seen, `${sort}: ${id} skipped`).toContain(id)
          const counts = new Map<string, number>()
          for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1)
          for (const [id, n] of counts) if (n > 1) expect(moved.has(id), `${sort}: ${id} listed ${n} times`).toBe(true)
          if (field === 'created_at') expect(new Set(seen).size).toBe(seen.length)
        },
      ),
      { numRuns: target === 'pglite' ? 30 : 50, endOnFailure: true },
    )
  }, 300_000)
})
