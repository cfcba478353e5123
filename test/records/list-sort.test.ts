/**
 * Sorted lists, range and `[in]` filters, counts and tombstones (docs/api.md, Lists): NULLs last in
 * both directions, the id breaking ties, cursors that still place a deleted or moved record, strict
 * validation of the bracketed parameters, erp:read for amounts, exact counts.
 */
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { json, type Member } from '../helpers/build-app.ts'
import { api, oauthHarnessPerFile, obtainTokens, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'
import { recordKinds, sortFields } from '../../src/records/contracts.ts'
import { createVia } from '../helpers/samples.ts'

describe.each(await targets())('sorted lists, ranges and counts on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))

  async function create(body: Record<string, unknown>): Promise<Record<string, any>> {
    const res = await admin.request({ method: 'POST', url: '/api/v1/opportunities', payload: { name: 'o', ...body } })
    expect(res.statusCode, res.body).toBe(201)
    return json(res)
  }

  async function get(url: string) {
    return admin.request({ method: 'GET', url: `/api/v1${url}` })
  }

  /** Every record of a listing, page by page. */
  async function all(url: string, limit: number): Promise<Record<string, any>[]> {
    const out: Record<string, any>[] = []
    let cursor: string | null = null
    for (;;) {
      const res = await get(`${url}${url.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.statusCode, res.body).toBe(200)
      const page = json(res)
      out.push(...page.data)
      if (!page.has_more) return out
      cursor = page.next_cursor
    }
  }

  it('sorts by a field both ways, NULLs last, the id breaking ties', async () => {
    const a = await create({ amount: '200.00' })
    const b = await create({ amount: null })
    const c = await create({ amount: '100.00' })
    const d = await create({ amount: '200.00' })
    const e = await create({ amount: null })
    const ids = (rows: Record<string, any>[]) => rows.map((r) => r.id)
    expect(ids(await all('/opportunities?sort=amount', 2))).toEqual([c.id, a.id, d.id, b.id, e.id])
    expect(ids(await all('/opportunities?sort=-amount', 2))).toEqual([d.id, a.id, c.id, e.id, b.id])
    expect(ids(await all('/opportunities?sort=created_at', 2))).toEqual([a.id, b.id, c.id, d.id, e.id])
    expect(ids(await all('/opportunities?sort=-created_at', 3))).toEqual([e.id, d.id, c.id, b.id, a.id])
    expect(ids(await all('/opportunities', 3))).toEqual([e.id, d.id, c.id, b.id, a.id])
  })

  it('counts the comments of one case', async () => {
    const [a, b] = await Promise.all(['A', 'B'].map(async (subject) => json(await admin.request({ method: 'POST', url: '/api/v1/cases', payload: { subject } }))))
    for (const [kase, body] of [[a, 'one'], [a, 'two'], [b, 'three']] as const) {
      expect((await admin.request({ method: 'POST', url: `/api/v1/cases/${kase.id}/comments`, payload: { body } })).statusCode).toBe(201)
    }
    expect(json(await get(`/cases/${a.id}/comments/count`))).toEqual({ count: 2 })
    expect(json(await get(`/cases/${b.id}/comments/count`))).toEqual({ count: 1 })
    expect((await get('/cases/0190a3c4-5b6d-7e8f-9a0b-1c2d3e4f5a6b/comments/count')).statusCode).toBe(404)
  })

  it('sorts status-like fields in their defined order (a pipeline), not alphabetically, across pages', async () => {
    const won = await create({ stage: 'closed_won' })
    const prospect = await create({ stage: 'prospecting' })
    const proposal = await create({ stage: 'proposal' })
    const prospect2 = await create({ stage: 'prospecting' })
    const lost = await create({ stage: 'closed_lost' })
    const ids = (rows: Record<string, any>[]) => rows.map((r) => r.id)
    expect(ids(await all('/opportunities?sort=stage', 2))).toEqual([prospect.id, prospect2.id, proposal.id, won.id, lost.id])
    expect(ids(await all('/opportunities?sort=-stage', 2))).toEqual([lost.id, won.id, proposal.id, prospect2.id, prospect.id])
    // A deleted cursor record keeps its place in that order too.
    const page = json(await get('/opportunities?sort=stage&limit=2'))
    expect(page.next_cursor).toBe(prospect2.id)
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/opportunities/${prospect2.id}` })).statusCode).toBe(204)
    expect(json(await get(`/opportunities?sort=stage&limit=10&cursor=${prospect2.id}`)).data.map((r: any) => r.id)).toEqual([proposal.id, won.id, lost.id])
    // Cases: priority low < medium < high < critical.
    for (const priority of ['critical', 'low', 'high', 'medium']) expect((await admin.request({ method: 'POST', url: '/api/v1/cases', payload: { subject: priority, priority } })).statusCode).toBe(201)
    expect((await all('/cases?sort=priority', 3)).map((r) => r.priority)).toEqual(['low', 'medium', 'high', 'critical'])
  })

  it('continues after a deleted cursor record where it was; after a moved one where it is now', async () => {
    for (const amount of ['10.00', '20.00', '30.00', '40.00', '50.00', '60.00']) await create({ amount })
    let page = json(await get('/opportunities?sort=amount&limit=2'))
    expect(page.data.map((r: any) => r.amount)).toEqual(['10.00', '20.00'])
    // The cursor (20) is deleted: its tombstone still places it.
    await admin.request({ method: 'DELETE', url: `/api/v1/opportunities/${page.next_cursor}` })
    page = json(await get(`/opportunities?sort=amount&limit=2&cursor=${page.next_cursor}`))
    expect(page.data.map((r: any) => r.amount)).toEqual(['30.00', '40.00'])
    // The cursor (40) moves to 5 before page 3: the listing continues after where it is now (5),
    // listing 30 and 40 again (docs/api.md, Lists); the reverse move would skip.
    await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${page.next_cursor}`, payload: { amount: '5.00' } })
    page = json(await get(`/opportunities?sort=amount&limit=10&cursor=${page.next_cursor}`))
    expect(page.data.map((r: any) => r.amount)).toEqual(['10.00', '30.00', '50.00', '60.00'])
    // A cursor deleted with a NULL value continues among the NULLs, by id.
    const n1 = await create({ amount: null })
    const n2 = await create({ amount: null })
    const n3 = await create({ amount: null })
    await admin.request({ method: 'DELETE', url: `/api/v1/opportunities/${n2.id}` })
    page = json(await get(`/opportunities?sort=-amount&limit=10&cursor=${n2.id}`))
    expect(page.data.map((r: any) => r.id)).toEqual([n1.id])
    page = json(await get(`/opportunities?sort=amount&limit=10&cursor=${n2.id}`))
    expect(page.data.map((r: any) => r.id)).toEqual([n3.id])
  })

  it('answers 400 invalid_cursor when a sorted list cannot place the cursor', async () => {
    await create({ amount: '1.00' })
    const res = await get('/opportunities?sort=amount&cursor=01890000-0000-7000-8000-000000000000')
    expect(res.statusCode).toBe(400)
    expect(json(res).code).toBe('invalid_cursor')
    // The default order places any id: it is the position itself.
    expect((await get('/opportunities?cursor=01890000-0000-7000-8000-000000000000')).statusCode).toBe(200)
  })

  it('filters by ranges and [in], combined with each other and with sort', async () => {
    const a = await create({ amount: '50000.00', close_date: '2026-03-01', stage: 'proposal' })
    const b = await create({ amount: '75000.00', close_date: '2026-04-15', stage: 'negotiation' })
    await create({ amount: '10000.00', close_date: '2026-05-01', stage: 'proposal' })
    await create({ amount: '90000.00', close_date: '2026-06-01', stage: 'closed_won' })
    const ids = async (q: string) => (await all(`/opportunities?${q}`, 50)).map((r) => r.id)
    expect(await ids('amount[gte]=50000&amount[lt]=90000&sort=amount')).toEqual([a.id, b.id])
    expect(await ids('close_date[lte]=2026-04-15&close_date[gt]=2026-03-01')).toEqual([b.id])
    expect(await ids('stage[in]=proposal,negotiation&amount[gte]=50000&sort=-amount')).toEqual([b.id, a.id])
    const t = new Date(Date.now() + 60_000).toISOString()
    expect(await ids(`created_at[gte]=${t}`)).toEqual([])
    expect((await ids(`updated_at[lt]=${t}&stage=proposal`)).length).toBe(2)
  })

  it('validates bracketed parameters strictly, naming unknown ones', async () => {
    for (const q of ['amount[gte]=abc', 'amount[gte]=1.234', 'close_date[lt]=2026-02-30', 'created_at[gt]=yesterday', 'stage[in]=proposal,nope', 'stage[in]=', 'sort=description', 'sort=amount,name']) {
      const res = await get(`/opportunities?${q}`)
      expect(res.statusCode, q).toBe(400)
    }
    const res = await get('/opportunities?amount[between]=1')
    expect(res.statusCode).toBe(400)
    expect(json(res).errors).toEqual([{ field: 'amount[between]', message: 'is not a known field' }])
    const tooMany = Array.from({ length: 51 }, () => 'proposal').join(',')
    expect((await get(`/opportunities?stage[in]=${tooMany}`)).statusCode).toBe(400)
  })

  it('counts exactly what the list with the same filters pages through', async () => {
    for (let i = 0; i < 7; i++) await create({ amount: `${i * 1000}.00`, stage: i % 2 ? 'proposal' : 'prospecting' })
    const count = async (q: string) => {
      const res = await get(`/opportunities/count${q}`)
      expect(res.statusCode, res.body).toBe(200)
      return json(res).count
    }
    expect(await count('')).toBe(7)
    expect(await count('?stage=proposal')).toBe(3)
    expect(await count('?amount[gte]=2000&stage[in]=prospecting')).toBe(3)
    expect(await count('?q=nothing-like-this')).toBe(0)
    expect((await get('/opportunities/count?limit=5')).statusCode).toBe(400)
    expect((await get('/opportunities/count?sort=amount')).statusCode).toBe(400)
  })

  it('lists tombstones for sync clients, newest deletion first, keyset-paged', async () => {
    const made = [await create({}), await create({}), await create({})]
    const since = new Date().toISOString()
    for (const r of made) expect((await admin.request({ method: 'DELETE', url: `/api/v1/opportunities/${r.id}` })).statusCode).toBe(204)
    const first = json(await get('/opportunities/deleted?limit=2'))
    expect(first.has_more).toBe(true)
    const second = json(await get(`/opportunities/deleted?limit=2&cursor=${first.next_cursor}`))
    const listed = [...first.data, ...second.data]
    expect(listed.map((t: any) => t.id).sort()).toEqual(made.map((r) => r.id).sort())
    for (const t of listed) expect(Date.parse(t.deleted_at)).toBeGreaterThanOrEqual(Date.parse(since) - 1000)
    expect(json(await get(`/opportunities/deleted?deleted_since=${new Date(Date.now() + 60_000).toISOString()}`)).data).toEqual([])
    // A deleted record is gone from every read; only the tombstone list knows it.
    expect((await get(`/opportunities/${made[0].id}`)).statusCode).toBe(404)
    expect(json(await get('/opportunities/count')).count).toBe(0)
    expect((await get('/opportunities/deleted?cursor=01890000-0000-7000-8000-000000000000')).statusCode).toBe(400)
    // A case's deletion deletes its comments: their tombstones are kept too.
    const kase = json(await admin.request({ method: 'POST', url: '/api/v1/cases', payload: { subject: 'S' } }))
    const comment = json(await admin.request({ method: 'POST', url: `/api/v1/cases/${kase.id}/comments`, payload: { body: 'b' } }))
    await admin.request({ method: 'DELETE', url: `/api/v1/cases/${kase.id}` })
    expect(json(await get('/case-comments/deleted')).data.map((t: any) => t.id)).toEqual([comment.id])
    expect(json(await get('/cases/deleted')).data.map((t: any) => t.id)).toEqual([kase.id])
    // Housekeeping forgets tombstones after 30 days.
    await sql`UPDATE record_tombstones SET deleted_at = now() - interval '31 days' WHERE id = ${made[0].id}`.execute(h.app.db)
    await h.app.runHousekeeping()
    expect(json(await get('/opportunities/deleted')).data.map((t: any) => t.id).sort()).toEqual([made[1].id, made[2].id].sort())
  })

  it('needs erp:read to sort, filter or count by amount (403 with a step-up challenge)', async () => {
    await create({ amount: '5.00' })
    const token = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
    for (const url of ['/api/v1/opportunities?sort=-amount', '/api/v1/opportunities?amount[gte]=1', '/api/v1/opportunities/count?amount[lt]=1']) {
      const res = await api(h.app, token, { url })
      expect(res.statusCode, url).toBe(403)
      expect(json(res).code).toBe('insufficient_scope')
      expect(res.headers['www-authenticate']).toContain('erp:read')
    }
    expect((await api(h.app, token, { url: '/api/v1/opportunities?sort=close_date' })).statusCode).toBe(200)
  })

  it('keeps in tombstones exactly the sortable columns of each kind, written by the deletion itself (no triggers)', async () => {
    // The write path keeps tombstones (record-tombstones.ts): no record table has a trigger, which a sharded PostgreSQL refuses.
    const triggers = await sql<{ table: string }>`
      SELECT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE NOT t.tgisinternal AND c.relname = ANY(${recordKinds.map((k) => k.table)})`.execute(h.app.db)
    expect(triggers.rows).toEqual([])
    for (const kind of recordKinds.filter((k) => k.name !== 'case_comment')) {
      const made = await createVia(admin, kind.name as Exclude<typeof kind.name, 'case_comment'>)
      expect((await admin.request({ method: 'DELETE', url: `/api/v1/${kind.path}/${made.id}` })).statusCode).toBe(204)
      const kept = await sql<{ sort_values: Record<string, unknown> | string }>`SELECT sort_values FROM record_tombstones WHERE org_id = ${admin.orgId} AND id = ${made.id}`.execute(h.app.db)
      const values = kept.rows[0].sort_values
      const keys = Object.keys(typeof values === 'string' ? JSON.parse(values) : values).sort()
      expect(keys, kind.table).toEqual(sortFields(kind).map((f) => f.name).filter((n) => n !== 'created_at').sort())
    }
  })

  it('has an (org_id, field, id) or unique (org_id, field) index for every sortable field', async () => {
    const rows = await sql<{ tablename: string; indexdef: string }>`SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = current_schema()`.execute(h.app.db)
    for (const kind of recordKinds) {
      for (const f of sortFields(kind).filter((x) => x.name !== 'created_at')) {
        const defs = rows.rows.filter((r) => r.tablename === kind.table).map((r) => r.indexdef)
        const ok = defs.some((d) => d.includes(`(org_id, ${f.name}, id)`) || (d.startsWith('CREATE UNIQUE') && d.endsWith(`(org_id, ${f.name})`)))
        expect(ok, `${kind.table}.${f.name}`).toBe(true)
      }
    }
  })
})
