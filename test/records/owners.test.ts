/**
 * Owners (docs/api.md, Owners): a new record is its creator's unless the body says otherwise, an
 * owner must be a member of the organization, reassigning is an ordinary change with its event,
 * and lists, counts and the pipeline filter by `owner_id` = a member, `me` or `none`.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { addMember, appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'

describe.each(await targets())('owners on %s', (target) => {
  const ctx = appPerFile(target)
  let admin: Member
  let rep: Member

  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
    rep = await addMember(ctx.app, admin.orgId)
  })

  async function create(as: Member, path: string, body: Record<string, unknown>) {
    const res = await as.request({ method: 'POST', url: `/api/v1/${path}`, payload: body })
    expect(res.statusCode, res.body).toBe(201)
    return json(res)
  }

  const names = async (as: Member, url: string) => {
    const res = await as.request({ method: 'GET', url })
    expect(res.statusCode, res.body).toBe(200)
    return (json(res).data as { name: string }[]).map((r) => r.name).sort()
  }

  const count = async (as: Member, url: string) => json(await as.request({ method: 'GET', url })).count as number

  it('a new record is its creator\'s; a given owner or an explicit null is kept', async () => {
    expect((await create(rep, 'accounts', { name: 'Mine' })).owner_id).toBe(rep.userId)
    expect((await create(rep, 'accounts', { name: 'Theirs', owner_id: admin.userId })).owner_id).toBe(admin.userId)
    expect((await create(rep, 'accounts', { name: 'Nobody', owner_id: null })).owner_id).toBeNull()
    expect((await create(admin, 'opportunities', { name: 'Deal' })).owner_id).toBe(admin.userId)
    // Kinds without an owner take none.
    const product = await admin.request({ method: 'POST', url: '/api/v1/products', payload: { name: 'Widget' } })
    expect(json(product)).not.toHaveProperty('owner_id')
  })

  it('a batch of creates is its creator\'s too, item by item unless an item says otherwise', async () => {
    const res = await rep.request({ method: 'POST', url: '/api/v1/leads/batch', payload: { operation: 'create', records: [{ last_name: 'A', company: 'A Co' }, { last_name: 'B', company: 'B Co', owner_id: null }] } })
    expect(res.statusCode, res.body).toBe(200)
    expect(json(res).data.map((r: { owner_id: string | null }) => r.owner_id)).toEqual([rep.userId, null])
  })

  it('refuses an owner who is not a member of the organization, naming the field, and writes nothing', async () => {
    const other = await createOrgWithAdmin(ctx.app, 'Other')
    for (const owner of [other.userId, '0190d6f0-0000-7000-8000-000000000000']) {
      const res = await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Stray', owner_id: owner } })
      expect(res.statusCode).toBe(400)
      expect(json(res).errors).toEqual([{ field: 'owner_id', message: 'must be the id of a member of this organization' }])
    }
    const account = await create(admin, 'accounts', { name: 'Kept' })
    const patch = await admin.request({ method: 'PATCH', url: `/api/v1/accounts/${account.id}`, payload: { owner_id: other.userId } })
    expect(patch.statusCode).toBe(400)
    expect(json(patch).errors[0].field).toBe('owner_id')
    expect(await names(admin, '/api/v1/accounts')).toEqual(['Kept'])
    expect(json(await admin.request({ method: 'GET', url: `/api/v1/accounts/${account.id}` })).owner_id).toBe(admin.userId)
  })

  it('reassigning is an ordinary change: journaled with the old owner, in the record\'s history', async () => {
    const account = await create(admin, 'accounts', { name: 'Acme' })
    const patched = await admin.request({ method: 'PATCH', url: `/api/v1/accounts/${account.id}`, payload: { owner_id: rep.userId } })
    expect(patched.statusCode, patched.body).toBe(200)
    expect(json(patched).owner_id).toBe(rep.userId)
    const history = json(await admin.request({ method: 'GET', url: `/api/v1/accounts/${account.id}/events` })).data
    expect(history[0]).toMatchObject({ type: 'account.updated', actor: { user_id: admin.userId }, data: { object: { owner_id: rep.userId }, previous: { owner_id: admin.userId } } })
  })

  it('lists and counts filter by owner_id: a member, me, none', async () => {
    await create(admin, 'accounts', { name: 'Admin one' })
    await create(rep, 'accounts', { name: 'Rep one' })
    await create(rep, 'accounts', { name: 'Rep two' })
    await create(admin, 'accounts', { name: 'Unassigned', owner_id: null })
    expect(await names(admin, `/api/v1/accounts?owner_id=${rep.userId}`)).toEqual(['Rep one', 'Rep two'])
    expect(await names(rep, '/api/v1/accounts?owner_id=me')).toEqual(['Rep one', 'Rep two'])
    expect(await names(admin, '/api/v1/accounts?owner_id=me')).toEqual(['Admin one'])
    expect(await names(admin, '/api/v1/accounts?owner_id=none')).toEqual(['Unassigned'])
    expect(await names(rep, '/api/v1/accounts?owner_id=me&sort=name')).toEqual(['Rep one', 'Rep two'])
    expect(await count(rep, '/api/v1/accounts/count?owner_id=me')).toBe(2)
    expect(await count(rep, '/api/v1/accounts/count?owner_id=none')).toBe(1)
    const bad = await admin.request({ method: 'GET', url: '/api/v1/accounts?owner_id=someone' })
    expect(bad.statusCode).toBe(400)
    expect(JSON.stringify(json(bad).errors)).toContain('owner_id')
  })

  it('the pipeline counts one owner\'s opportunities with the same filter', async () => {
    await create(admin, 'opportunities', { name: 'A', stage: 'proposal', amount: '100' })
    await create(rep, 'opportunities', { name: 'B', stage: 'proposal', amount: '250' })
    await create(rep, 'opportunities', { name: 'C', stage: 'negotiation', owner_id: null })
    const stageCount = async (as: Member, query: string) => {
      const res = await as.request({ method: 'GET', url: `/api/v1/opportunities/pipeline${query}` })
      expect(res.statusCode, res.body).toBe(200)
      const body = json(res)
      return { total: body.total_count, proposal: body.stages.find((s: { stage: string }) => s.stage === 'proposal') }
    }
    expect((await stageCount(admin, '')).total).toBe(3)
    const mine = await stageCount(rep, '?owner_id=me')
    expect(mine.total).toBe(1)
    expect(mine.proposal.amounts).toEqual([{ currency: 'USD', total: '250.00' }])
    expect((await stageCount(admin, `?owner_id=${rep.userId}`)).total).toBe(1)
    expect((await stageCount(admin, '?owner_id=none')).total).toBe(1)
    expect((await admin.request({ method: 'GET', url: '/api/v1/opportunities/pipeline?owner_id=x' })).statusCode).toBe(400)
  })
})
