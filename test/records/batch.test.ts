/**
 * Batch writes and upserts by src_id: every operation, all or nothing with each failing item named
 * by index and field, the kinds' own rules (case numbers, closing, comments under their case), the
 * events of every record written, scopes, and concurrent upserts of one src_id writing one record.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'

describe.each(await targets())('batch writes on %s', (target) => {
  const ctx = appPerFile(target)
  let admin: Member
  const batch = (path: string, operation: string, records: unknown[], m: Member = admin) => m.request({ method: 'POST', url: `/api/v1/${path}/batch`, payload: { operation, records } })
  const count = async (table: string) => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE org_id = ${admin.orgId}`.execute(ctx.app.db)).rows[0].n)
  const deliveries = async () => (await sql<{ event_type: string }>`SELECT event_type FROM webhook_deliveries WHERE org_id = ${admin.orgId} ORDER BY event_type`.execute(ctx.app.db)).rows.map((r) => r.event_type)

  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  async function subscribe(events: string[]) {
    const res = await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://93.184.215.14/hook', events } })
    expect(res.statusCode, res.body).toBe(201)
  }

  it('creates in input order, as GET shows them, with one created event each', async () => {
    await subscribe(['account.created'])
    const res = await batch('accounts', 'create', [{ name: 'A' }, { name: 'B', website: 'https://b.example' }, { name: 'C', src_id: 'S-C' }])
    expect(res.statusCode, res.body).toBe(200)
    const data = json(res).data
    expect(data.map((r: any) => r.name)).toEqual(['A', 'B', 'C'])
    for (const record of data) expect(json(await admin.request({ method: 'GET', url: `/api/v1/accounts/${record.id}` }))).toEqual(record)
    expect(await deliveries()).toEqual(['account.created', 'account.created', 'account.created'])
  })

  it('queues deliveries only for the event types an endpoint subscribes to', async () => {
    await subscribe(['contact.updated'])
    const created = await batch('contacts', 'create', [{ last_name: 'One' }, { last_name: 'Two' }])
    expect(created.statusCode, created.body).toBe(200)
    expect(await deliveries()).toEqual([])
    const ids = json(created).data.map((r: { id: string }) => r.id)
    const updated = await batch('contacts', 'update', ids.map((id: string) => ({ id, first_name: 'Changed' })))
    expect(updated.statusCode, updated.body).toBe(200)
    expect(await deliveries()).toEqual(['contact.updated', 'contact.updated'])
  })

  it('writes nothing when any item is invalid, and names each failing item by index and field', async () => {
    const account = await createVia(admin, 'account')
    const res = await batch('contacts', 'create', [
      { last_name: 'Fine' },
      { first_name: 'No last name' },
      { last_name: 'Fine too', account_id: account.id },
      { last_name: 'Typo', emial: 'x@example.com' },
      { last_name: 'Dangling', account_id: '01900000-0000-7000-8000-000000000000' },
      { last_name: 'Bad email', email: 'not an email' },
    ])
    expect(res.statusCode, res.body).toBe(400)
    const problem = json(res)
    expect(problem.code).toBe('validation_failed')
    expect(problem.errors.map((e: any) => [e.index, e.field])).toEqual([
      [1, 'records[1].last_name'],
      [3, 'records[3].emial'],
      [5, 'records[5].email'],
    ])
    expect(await count('contacts')).toBe(0)
    // Reference problems are found once the items are well-formed, also by index.
    const refs = await batch('contacts', 'create', [{ last_name: 'Fine' }, { last_name: 'Dangling', account_id: '01900000-0000-7000-8000-000000000000' }])
    expect(refs.statusCode).toBe(400)
    expect(json(refs).errors).toEqual([{ index: 1, field: 'records[1].account_id', message: 'must be the id of an account of this organization' }])
    expect(await count('contacts')).toBe(0)
  })

  it('bounds a batch to 1-1000 records and refuses unknown operations', async () => {
    expect((await batch('accounts', 'create', [])).statusCode).toBe(400)
    expect((await batch('accounts', 'create', Array.from({ length: 1001 }, (_, i) => ({ name: `A${i}` })))).statusCode).toBe(400)
    expect((await batch('accounts', 'merge', [{ name: 'A' }])).statusCode).toBe(400)
    const full = await batch('accounts', 'create', Array.from({ length: 1000 }, (_, i) => ({ name: `A${i}` })))
    expect(full.statusCode, full.body).toBe(200)
    expect(await count('accounts')).toBe(1000)
  })

  it('updates by id with PATCH semantics and the special events; an unknown id refuses the batch', async () => {
    await subscribe(['opportunity.updated', 'opportunity.stage_changed'])
    const a = await createVia(admin, 'opportunity', { name: 'A', amount: '10.00' })
    const b = await createVia(admin, 'opportunity', { name: 'B' })
    const missing = await batch('opportunities', 'update', [{ id: a.id, name: 'A2' }, { id: '01900000-0000-7000-8000-000000000000', name: 'X' }])
    expect(missing.statusCode).toBe(400)
    expect(json(missing).errors[0]).toMatchObject({ index: 1, field: 'records[1].id' })
    expect((await createVia(admin, 'account')).id).toBeTruthy()
    const res = await batch('opportunities', 'update', [{ id: b.id, stage: 'proposal' }, { id: a.id, name: 'A2' }])
    expect(res.statusCode, res.body).toBe(200)
    const [nb, na] = json(res).data
    expect(nb).toMatchObject({ id: b.id, name: 'B', stage: 'proposal' })
    expect(na).toMatchObject({ id: a.id, name: 'A2', amount: '10.00', stage: 'prospecting' })
    expect(await deliveries()).toEqual(['opportunity.stage_changed', 'opportunity.updated', 'opportunity.updated'])
    expect((await batch('opportunities', 'update', [{ id: a.id, name: 'x' }, { id: a.id.toUpperCase(), name: 'y' }])).statusCode).toBe(400)
  })

  it('upserts by src_id: new ones created, existing ones changed in place', async () => {
    const first = await batch('contacts', 'upsert', [{ src_id: 'S1', last_name: 'One' }, { src_id: 'S2', last_name: 'Two', email: 'two@example.com' }])
    expect(first.statusCode, first.body).toBe(200)
    const [one, two] = json(first).data
    const again = await batch('contacts', 'upsert', [{ src_id: 'S3', last_name: 'Three' }, { src_id: 'S2', last_name: 'Deux' }, { src_id: 'S1', last_name: 'Uno' }])
    expect(again.statusCode, again.body).toBe(200)
    const [three, deux, uno] = json(again).data
    expect(deux).toMatchObject({ id: two.id, last_name: 'Deux', email: 'two@example.com', created_at: two.created_at })
    expect(uno).toMatchObject({ id: one.id, last_name: 'Uno' })
    expect(three.src_id).toBe('S3')
    expect(await count('contacts')).toBe(3)
    const dup = await batch('contacts', 'upsert', [{ src_id: 'S9', last_name: 'x' }, { src_id: 'S9', last_name: 'y' }])
    expect(dup.statusCode).toBe(400)
    expect(json(dup).errors[0]).toMatchObject({ index: 1, field: 'records[1].src_id' })
    expect((await batch('contacts', 'upsert', [{ last_name: 'No key' }])).statusCode).toBe(400)
  })

  it('creating a src_id that exists refuses the batch, naming the item', async () => {
    await createVia(admin, 'account', { src_id: 'TAKEN' })
    const res = await batch('accounts', 'create', [{ name: 'ok', src_id: 'FREE' }, { name: 'dup', src_id: 'TAKEN' }])
    expect(res.statusCode).toBe(400)
    expect(json(res).errors).toEqual([{ index: 1, field: 'records[1].src_id', message: 'is already the src_id of another account of this organization' }])
    expect(await count('accounts')).toBe(1)
  })

  it('deletes by id and answers the ids, with deleted events', async () => {
    await subscribe(['case.deleted'])
    const a = await createVia(admin, 'case')
    const b = await createVia(admin, 'case')
    const res = await batch('cases', 'delete', [{ id: b.id }, { id: a.id }])
    expect(res.statusCode, res.body).toBe(200)
    expect(json(res)).toEqual({ data: [b.id, a.id] })
    expect(await count('cases')).toBe(0)
    expect(await deliveries()).toEqual(['case.deleted', 'case.deleted'])
  })

  it('numbers created cases in input order from the one sequence, and applies status rules', async () => {
    const before = await createVia(admin, 'case')
    const res = await batch('cases', 'create', [{ subject: 'a' }, { subject: 'b', status: 'closed' }, { subject: 'c', status: 'escalated' }])
    expect(res.statusCode, res.body).toBe(200)
    const [a, b, c] = json(res).data
    expect([a.case_number, b.case_number, c.case_number]).toEqual([before.case_number + 1, before.case_number + 2, before.case_number + 3])
    expect(b.closed_at).toEqual(expect.any(String))
    expect(c).toMatchObject({ is_escalated: true, escalated_at: expect.any(String) })
    expect((await createVia(admin, 'case')).case_number).toBe(before.case_number + 4)
    const reopened = await batch('cases', 'update', [{ id: b.id, status: 'working' }, { id: a.id, status: 'closed' }])
    expect(reopened.statusCode, reopened.body).toBe(200)
    const [rb, ra] = json(reopened).data
    expect(rb.closed_at).toBeNull()
    expect(ra.closed_at).toEqual(expect.any(String))
    // Upserting a case again keeps its number; only new ones take numbers.
    const up1 = json(await batch('cases', 'upsert', [{ src_id: 'C1', subject: 'x' }])).data[0]
    const up2 = json(await batch('cases', 'upsert', [{ src_id: 'C1', subject: 'y' }, { src_id: 'C2', subject: 'z' }])).data
    expect(up2[0]).toMatchObject({ id: up1.id, case_number: up1.case_number, subject: 'y' })
    expect(up2[1].case_number).toBe(up1.case_number + 1)
  })

  it('refuses what single writes refuse (a lead marked converted) by index', async () => {
    const res = await batch('leads', 'create', [{ last_name: 'a', company: 'x' }, { last_name: 'b', company: 'y', status: 'converted' }])
    expect(res.statusCode).toBe(400)
    expect(json(res).errors[0]).toMatchObject({ index: 1, field: 'records[1].status' })
  })

  it('writes the comments of one case under it', async () => {
    const kase = await createVia(admin, 'case')
    const other = await createVia(admin, 'case')
    const res = await admin.request({ method: 'POST', url: `/api/v1/cases/${kase.id}/comments/batch`, payload: { operation: 'create', records: [{ body: 'first' }, { body: 'second', is_public: true }] } })
    expect(res.statusCode, res.body).toBe(200)
    const [first, second] = json(res).data
    expect(first).toMatchObject({ case_id: kase.id, body: 'first', author_user_id: admin.userId })
    const listed = json(await admin.request({ method: 'GET', url: `/api/v1/cases/${kase.id}/comments` })).data
    expect(listed.map((c: any) => c.id)).toEqual([first.id, second.id])
    // Another case's comment cannot be changed through this case.
    const elsewhere = await admin.request({ method: 'POST', url: `/api/v1/cases/${other.id}/comments/batch`, payload: { operation: 'update', records: [{ id: first.id, body: 'hijack' }] } })
    expect(elsewhere.statusCode).toBe(400)
    const missing = await admin.request({ method: 'POST', url: `/api/v1/cases/01900000-0000-7000-8000-000000000000/comments/batch`, payload: { operation: 'create', records: [{ body: 'x' }] } })
    expect(missing.statusCode).toBe(404)
  })

  it('PUT by-src-id creates (201) then updates (200); concurrent calls with one src_id write one record', async () => {
    const put = (body: object, srcId = 'EXT-1') => admin.request({ method: 'PUT', url: `/api/v1/accounts/by-src-id/${srcId}`, payload: body })
    const created = await put({ name: 'Acme' })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.headers.location).toBe(`/api/v1/accounts/${json(created).id}`)
    const updated = await put({ name: 'Acme Corp' })
    expect(updated.statusCode).toBe(200)
    expect(json(updated)).toMatchObject({ id: json(created).id, name: 'Acme Corp', src_id: 'EXT-1' })
    expect((await put({ name: 'x', src_id: 'OTHER' })).statusCode).toBe(400)

    const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => put({ name: `Racer ${i}` }, 'RACE')))
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201])
    expect(new Set(racing.map((r) => json(r).id)).size).toBe(1)
    expect(Number((await sql<{ n: string }>`SELECT count(*) AS n FROM accounts WHERE org_id = ${admin.orgId} AND src_id = 'RACE'`.execute(ctx.app.db)).rows[0].n)).toBe(1)
  })

  it('settles batches that write overlapping records at the same moment, in any order, without an error', async () => {
    const existing = json(await batch('accounts', 'create', Array.from({ length: 20 }, (_, i) => ({ name: `Old ${i}` })))).data.map((r: { id: string }) => r.id)
    let upserted = 0
    for (let round = 0; round < 3; round++) {
      const srcIds = Array.from({ length: 40 }, (_, i) => `R${round}-${String(i).padStart(2, '0')}`)
      // Each batch names its own shuffled subset, so every pair shares records in different orders.
      const shuffled = <T,>(xs: T[]) => xs.map((x) => [Math.random(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x)
      const upserts = Array.from({ length: 6 }, (_, b) => batch('accounts', 'upsert', shuffled(srcIds).slice(0, 30).map((s) => ({ src_id: s, name: `Upsert ${b}` }))))
      const updates = Array.from({ length: 2 }, (_, b) => batch('accounts', 'update', shuffled(existing).map((id) => ({ id, name: `Update ${b}` }))))
      const answers = await Promise.all([...upserts, ...updates])
      expect(answers.map((a) => a.statusCode), answers.find((a) => a.statusCode !== 200)?.body).toEqual(answers.map(() => 200))
      const stored = await sql<{ src_id: string; n: string }>`SELECT src_id, count(*) AS n FROM accounts WHERE org_id = ${admin.orgId} AND src_id LIKE ${`R${round}-%`} GROUP BY src_id`.execute(ctx.app.db)
      expect(stored.rows.every((r) => Number(r.n) === 1)).toBe(true)
      // Every src_id some batch named exists once: the union of the subsets.
      const named = new Set(answers.slice(0, 6).flatMap((a) => json(a).data.map((r: { src_id: string }) => r.src_id)))
      expect(stored.rows.map((r) => r.src_id).sort()).toEqual([...named].sort())
      upserted += named.size
    }
    expect(await count('accounts')).toBe(20 + upserted)
  })

  it('keeps organizations apart: ids and references of another organization are unknown here', async () => {
    const other = await createOrgWithAdmin(ctx.app, 'Other')
    const theirs = await createVia(other, 'account')
    const res = await batch('accounts', 'update', [{ id: theirs.id, name: 'mine now' }])
    expect(res.statusCode).toBe(400)
    const refs = await batch('contacts', 'create', [{ last_name: 'x', account_id: theirs.id }])
    expect(refs.statusCode).toBe(400)
    expect((await batch('accounts', 'delete', [{ id: theirs.id }])).statusCode).toBe(400)
    expect(json(await other.request({ method: 'GET', url: `/api/v1/accounts/${theirs.id}` })).name).toBe(theirs.name)
  })
})
