import { beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia, minimalBodies, topLevelKinds } from '../helpers/samples.ts'
import { kindsByName } from '../../src/records/kinds/index.ts'

describe.each(await targets())('records CRUD on %s', (target) => {
  const ctx = appPerFile(target)
  let admin: Member

  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  describe.each(topLevelKinds)('%s', (kind) => {
    const path = `/api/v1/${kindsByName[kind].path}`

    it('creates, reads, lists, patches and deletes', async () => {
      const created = await createVia(admin, kind, { src_id: `SRC-${kind}`, custom_fields: { legacy_code: 'X1', nested: { a: [1, 2] } } })
      expect(created.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(created.src_id).toBe(`SRC-${kind}`)
      expect(created.custom_fields).toEqual({ legacy_code: 'X1', nested: { a: [1, 2] } })
      expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      for (const [k, v] of Object.entries(minimalBodies[kind])) expect(created[k]).toEqual(v)

      const got = await admin.request({ method: 'GET', url: `${path}/${created.id}` })
      expect(got.statusCode).toBe(200)
      expect(json(got)).toEqual(created)

      const list = await admin.request({ method: 'GET', url: path })
      expect(list.statusCode).toBe(200)
      expect(json(list)).toEqual({ data: [created], next_cursor: null, has_more: false })

      const field = kind === 'activity' ? 'subject' : kind === 'case' ? 'subject' : kind === 'contact' || kind === 'lead' ? 'last_name' : 'name'
      const patched = await admin.request({ method: 'PATCH', url: `${path}/${created.id}`, payload: { [field]: 'Changed' } })
      expect(patched.statusCode).toBe(200)
      expect(json(patched)[field]).toBe('Changed')
      expect(json(patched).created_at).toBe(created.created_at)
      expect(Date.parse(json(patched).updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at))

      const del = await admin.request({ method: 'DELETE', url: `${path}/${created.id}` })
      expect(del.statusCode).toBe(204)
      expect((await admin.request({ method: 'GET', url: `${path}/${created.id}` })).statusCode).toBe(404)
      expect((await admin.request({ method: 'DELETE', url: `${path}/${created.id}` })).statusCode).toBe(404)
      expect((await admin.request({ method: 'PATCH', url: `${path}/${created.id}`, payload: { [field]: 'x' } })).statusCode).toBe(404)
    })

    it('rejects bad input with a problem and writes nothing', async () => {
      const bad: [string, unknown, number, string][] = [
        ['unknown field', { ...minimalBodies[kind], nope: 1 }, 400, 'validation_failed'],
        ['missing required field', {}, 400, 'validation_failed'],
        ['wrong type', Object.fromEntries(Object.keys(minimalBodies[kind]).map((k) => [k, 42])), 400, 'validation_failed'],
        ['string too long', Object.fromEntries(Object.entries(minimalBodies[kind]).map(([k, v]) => [k, k === 'kind' ? v : 'x'.repeat(300)])), 400, 'validation_failed'],
        ['array body', [minimalBodies[kind]], 400, 'validation_failed'],
        ['custom_fields not an object', { ...minimalBodies[kind], custom_fields: [1] }, 400, 'validation_failed'],
      ]
      for (const [why, payload, status, code] of bad) {
        const res = await admin.request({ method: 'POST', url: path, payload: payload as object })
        expect(res.statusCode, why).toBe(status)
        expect(res.headers['content-type'], why).toContain('application/problem+json')
        expect(json(res).code, why).toBe(code)
        expect(json(res).errors?.length, why).toBeGreaterThan(0)
      }
      const malformed = await admin.request({ method: 'POST', url: path, payload: '{"name": ', headers: { 'content-type': 'application/json' } })
      expect(malformed.statusCode).toBe(400)
      expect(json(malformed).code).toBe('malformed_json')
      const list = json(await admin.request({ method: 'GET', url: path }))
      expect(list.data).toHaveLength(0)
    })

    it('answers 400 for a malformed id and 404 for an unknown one', async () => {
      const badId = await admin.request({ method: 'GET', url: `${path}/not-a-uuid` })
      expect(badId.statusCode).toBe(400)
      expect(json(badId).code).toBe('invalid_id')
      const urn = await admin.request({ method: 'GET', url: `${path}/urn:uuid:0190d6f0-0000-7000-8000-000000000000` })
      expect(urn.statusCode).toBe(400)
      const unknown = await admin.request({ method: 'GET', url: `${path}/0190d6f0-0000-7000-8000-000000000000` })
      expect(unknown.statusCode).toBe(404)
      expect(json(unknown).code).toBe('not_found')
    })
  })

  it('rejects an oversize body with 413 and writes nothing', async () => {
    const res = await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Big', description: 'x'.repeat(1_100_000) } })
    expect(res.statusCode).toBe(413)
    expect(json(res).code).toBe('payload_too_large')
    expect(json(await admin.request({ method: 'GET', url: '/api/v1/accounts' })).data).toHaveLength(0)
  })

  it('keeps decimals exact and rejects more than two fraction digits', async () => {
    const opp = await createVia(admin, 'opportunity', { amount: '12345678901234.56' })
    expect(opp.amount).toBe('12345678901234.56')
    const asNumber = await createVia(admin, 'opportunity', { amount: 19.99 })
    expect(asNumber.amount).toBe('19.99')
    const tooPrecise = await admin.request({ method: 'POST', url: '/api/v1/opportunities', payload: { name: 'x', amount: 1.234 } })
    expect(tooPrecise.statusCode).toBe(400)
    expect(json(tooPrecise).errors[0].field).toBe('amount')
    const badString = await admin.request({ method: 'POST', url: '/api/v1/opportunities', payload: { name: 'x', amount: '1,000' } })
    expect(badString.statusCode).toBe(400)
  })

  it('rejects enum values outside the list and impossible dates', async () => {
    const stage = await admin.request({ method: 'POST', url: '/api/v1/opportunities', payload: { name: 'x', stage: 'won' } })
    expect(stage.statusCode).toBe(400)
    expect(json(stage).errors[0]).toEqual({ field: 'stage', message: expect.stringContaining('closed_won') })
    const date = await admin.request({ method: 'POST', url: '/api/v1/opportunities', payload: { name: 'x', close_date: '2026-02-30' } })
    expect(date.statusCode).toBe(400)
    const year0 = await admin.request({ method: 'POST', url: '/api/v1/opportunities', payload: { name: 'x', close_date: '0000-01-01' } })
    expect(year0.statusCode).toBe(400)
  })

  it('checks references: same organization, right kind, named field', async () => {
    const account = await createVia(admin, 'account')
    const contact = await createVia(admin, 'contact', { account_id: account.id })
    expect(contact.account_id).toBe(account.id)
    const wrongKind = await admin.request({ method: 'POST', url: '/api/v1/contacts', payload: { last_name: 'x', account_id: contact.id } })
    expect(wrongKind.statusCode).toBe(400)
    expect(json(wrongKind).errors).toEqual([{ field: 'account_id', message: 'must be the id of an account of this organization' }])
    const owner = await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'x', owner_id: admin.userId } })
    expect(owner.statusCode).toBe(201)
    const badOwner = await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'x', owner_id: account.id } })
    expect(badOwner.statusCode).toBe(400)
    expect(json(badOwner).errors[0].field).toBe('owner_id')
    // Deleting the account keeps the contact, without the link.
    await admin.request({ method: 'DELETE', url: `/api/v1/accounts/${account.id}` })
    const after = json(await admin.request({ method: 'GET', url: `/api/v1/contacts/${contact.id}` }))
    expect(after.account_id).toBeNull()
  })

  it('refuses a duplicate src_id within a kind with 409', async () => {
    await createVia(admin, 'account', { src_id: '001A' })
    const dup = await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Again', src_id: '001A' } })
    expect(dup.statusCode).toBe(409)
    expect(json(dup).code).toBe('conflict')
    await createVia(admin, 'contact', { src_id: '001A' }) // another kind may reuse it
  })

  it('numbers cases per organization and stamps closed_at', async () => {
    const c1 = await createVia(admin, 'case')
    const c2 = await createVia(admin, 'case', { status: 'closed' })
    expect(c2.case_number).toBe(c1.case_number + 1)
    expect(c2.closed_at).not.toBeNull()
    const other = await createOrgWithAdmin(ctx.app, 'Other')
    const o1 = await createVia(other, 'case')
    expect(o1.case_number).toBe(1)
    const readOnly = await admin.request({ method: 'PATCH', url: `/api/v1/cases/${c1.id}`, payload: { case_number: 99 } })
    expect(readOnly.statusCode).toBe(400)
    const closed = json(await admin.request({ method: 'PATCH', url: `/api/v1/cases/${c1.id}`, payload: { status: 'closed' } }))
    expect(closed.closed_at).not.toBeNull()
    const reopened = json(await admin.request({ method: 'PATCH', url: `/api/v1/cases/${c1.id}`, payload: { status: 'working' } }))
    expect(reopened.closed_at).toBeNull()
  })

  it('lists with filters, q and updated_since, and rejects unknown query parameters', async () => {
    const a = await createVia(admin, 'account', { name: 'Acme Rockets' })
    const b = await createVia(admin, 'account', { name: 'Beta' })
    await createVia(admin, 'contact', { last_name: 'One', account_id: a.id })
    await createVia(admin, 'contact', { last_name: 'Two', account_id: b.id, email: 'TWO@Example.com' })
    const byAccount = json(await admin.request({ method: 'GET', url: `/api/v1/contacts?account_id=${a.id}` }))
    expect(byAccount.data.map((c: any) => c.last_name)).toEqual(['One'])
    const q = json(await admin.request({ method: 'GET', url: '/api/v1/contacts?q=two%40example' }))
    expect(q.data.map((c: any) => c.last_name)).toEqual(['Two'])
    const likeChars = json(await admin.request({ method: 'GET', url: '/api/v1/accounts?q=%25' }))
    expect(likeChars.data).toHaveLength(0)
    const rockets = json(await admin.request({ method: 'GET', url: '/api/v1/accounts?q=ROCKET' }))
    expect(rockets.data.map((x: any) => x.id)).toEqual([a.id])
    const since = json(await admin.request({ method: 'GET', url: `/api/v1/accounts?updated_since=${encodeURIComponent(b.updated_at)}` }))
    expect(since.data.map((x: any) => x.id)).toEqual([b.id])
    const unknown = await admin.request({ method: 'GET', url: '/api/v1/accounts?colour=red' })
    expect(unknown.statusCode).toBe(400)
    const badFilter = await admin.request({ method: 'GET', url: '/api/v1/contacts?account_id=nope' })
    expect(badFilter.statusCode).toBe(400)
    const badStage = await admin.request({ method: 'GET', url: '/api/v1/opportunities?stage=won' })
    expect(badStage.statusCode).toBe(400)
  })

  it('lists only the records named by ids (up to 100), never another organization\'s, keeping the paging rules', async () => {
    const created = []
    for (const name of ['One', 'Two', 'Three']) created.push(await createVia(admin, 'account', { name }))
    const other = await createOrgWithAdmin(ctx.app, 'Other Org')
    const theirs = await createVia(other, 'account', { name: 'Theirs' })
    const missing = '0190d3c0-0000-7000-8000-000000000000'
    const ids = [created[0].id, created[2].id, theirs.id, missing].join(',')
    const page = json(await admin.request({ method: 'GET', url: `/api/v1/accounts?ids=${ids}` }))
    expect(page.data.map((a: any) => a.name)).toEqual(['Three', 'One'])
    const first = json(await admin.request({ method: 'GET', url: `/api/v1/accounts?ids=${ids}&limit=1` }))
    expect(first.data.map((a: any) => a.name)).toEqual(['Three'])
    const rest = json(await admin.request({ method: 'GET', url: `/api/v1/accounts?ids=${ids}&limit=1&cursor=${first.next_cursor}` }))
    expect([rest.data.map((a: any) => a.name), rest.has_more]).toEqual([['One'], false])
    const withQ = json(await admin.request({ method: 'GET', url: `/api/v1/accounts?ids=${ids}&q=thr` }))
    expect(withQ.data.map((a: any) => a.name)).toEqual(['Three'])
    const hundred = Array.from({ length: 100 }, () => missing).join(',')
    expect((await admin.request({ method: 'GET', url: `/api/v1/accounts?ids=${hundred}` })).statusCode).toBe(200)
    for (const bad of [`${hundred},${missing}`, 'nope', `${missing},`, `${missing},,${missing}`, '', `urn:uuid:${missing}`]) {
      const res = await admin.request({ method: 'GET', url: `/api/v1/accounts?ids=${encodeURIComponent(bad)}` })
      expect(res.statusCode, bad.slice(0, 60)).toBe(400)
      expect(json(res).errors[0].field).toBe('ids')
    }
  })

  it('validates limit and cursor as docs/decisions.md says', async () => {
    for (const limit of ['0', '201', '-1', '1.5', 'abc', '']) {
      const res = await admin.request({ method: 'GET', url: `/api/v1/accounts?limit=${limit}` })
      expect(res.statusCode, `limit=${limit}`).toBe(400)
      expect(json(res).code).toBe('invalid_limit')
    }
    for (const cursor of ['abc', '123', '0190d6f0-0000-7000-8000-00000000000', '']) {
      const res = await admin.request({ method: 'GET', url: `/api/v1/accounts?cursor=${cursor}` })
      expect(res.statusCode, `cursor=${cursor}`).toBe(400)
      expect(json(res).code).toBe('invalid_cursor')
    }
    expect((await admin.request({ method: 'GET', url: '/api/v1/accounts?limit=200' })).statusCode).toBe(200)
    expect((await admin.request({ method: 'GET', url: '/api/v1/accounts?limit=1' })).statusCode).toBe(200)
  })

  it('threads case comments oldest first and pages them', async () => {
    const kase = await createVia(admin, 'case')
    const bodies = ['first', 'second', 'third']
    for (const body of bodies) {
      const res = await admin.request({ method: 'POST', url: `/api/v1/cases/${kase.id}/comments`, payload: { body } })
      expect(res.statusCode).toBe(201)
      expect(json(res).author_user_id).toBe(admin.userId)
      expect(json(res).case_id).toBe(kase.id)
    }
    const p1 = json(await admin.request({ method: 'GET', url: `/api/v1/cases/${kase.id}/comments?limit=2` }))
    expect(p1.data.map((c: any) => c.body)).toEqual(['first', 'second'])
    expect(p1.has_more).toBe(true)
    const p2 = json(await admin.request({ method: 'GET', url: `/api/v1/cases/${kase.id}/comments?limit=2&cursor=${p1.next_cursor}` }))
    expect(p2.data.map((c: any) => c.body)).toEqual(['third'])
    expect(p2).toMatchObject({ has_more: false, next_cursor: null })
    const id = p1.data[0].id
    const patched = await admin.request({ method: 'PATCH', url: `/api/v1/case-comments/${id}`, payload: { body: 'edited', is_public: true } })
    expect(json(patched)).toMatchObject({ body: 'edited', is_public: true })
    const moved = await admin.request({ method: 'PATCH', url: `/api/v1/case-comments/${id}`, payload: { case_id: kase.id } })
    expect(moved.statusCode).toBe(400)
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/case-comments/${id}` })).statusCode).toBe(204)
    expect((await admin.request({ method: 'GET', url: `/api/v1/cases/0190d6f0-0000-7000-8000-000000000000/comments` })).statusCode).toBe(404)
    expect((await admin.request({ method: 'POST', url: `/api/v1/cases/0190d6f0-0000-7000-8000-000000000000/comments`, payload: { body: 'x' } })).statusCode).toBe(404)
    // Deleting the case removes its thread.
    await admin.request({ method: 'DELETE', url: `/api/v1/cases/${kase.id}` })
    expect((await admin.request({ method: 'GET', url: `/api/v1/case-comments/${p1.data[1].id}` })).statusCode).toBe(404)
  })
})
