/**
 * The members API: listing (people in the app, tokens with crm:read), changing roles and removing
 * people (administrators in the app only), the last-administrator rule, what removal ends, and
 * tenancy between organizations.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { addMember, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { api, confidentialClient, obtainTokens, resetHarness, type OAuthHarness } from '../oauth/helpers.ts'
import { harnessPerFile, rolesBy } from './helpers.ts'

describe.each(await targets())('members API on %s', (target) => {
  const ctx = harnessPerFile(target)
  let h: OAuthHarness
  let admin: Member
  let member: Member
  const patch = (as: Member, userId: string, role: string) => as.request({ method: 'PATCH', url: `/api/v1/members/${userId}`, payload: { role } })
  const remove = (as: Member, userId: string) => as.request({ method: 'DELETE', url: `/api/v1/members/${userId}` })
  const roles = (as: Member) => rolesBy(as, 'user_id')

  beforeEach(async () => {
    h = ctx.h
    admin = await createOrgWithAdmin(h.app, 'Acme')
    member = await addMember(h.app, admin.orgId, 'member')
  })

  it('lists the members, oldest account first, in keyset pages', async () => {
    const third = await addMember(h.app, admin.orgId, 'admin')
    const all = json(await member.request({ method: 'GET', url: '/api/v1/members' }))
    expect(all).toMatchObject({ has_more: false, next_cursor: null })
    expect(all.data.map((m: any) => m.user_id)).toEqual([admin.userId, member.userId, third.userId])
    expect(all.data[0]).toEqual({ user_id: admin.userId, email: admin.email, name: 'Admin', role: 'admin', joined_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) })

    const first = json(await admin.request({ method: 'GET', url: '/api/v1/members?limit=2' }))
    expect(first.data).toHaveLength(2)
    expect(first).toMatchObject({ has_more: true, next_cursor: member.userId })
    const second = json(await admin.request({ method: 'GET', url: `/api/v1/members?limit=2&cursor=${first.next_cursor}` }))
    expect(second.data.map((m: any) => m.user_id)).toEqual([third.userId])
    expect(second.has_more).toBe(false)
    expect((await admin.request({ method: 'GET', url: '/api/v1/members?limit=0' })).statusCode).toBe(400)
    expect(json(await admin.request({ method: 'GET', url: '/api/v1/members?cursor=nope' })).code).toBe('invalid_cursor')
  })

  it('lets an administrator change roles, and nobody else', async () => {
    const promoted = await patch(admin, member.userId, 'admin')
    expect(promoted.statusCode).toBe(200)
    expect(json(promoted)).toMatchObject({ user_id: member.userId, role: 'admin' })
    expect((await roles(admin))[member.userId]).toBe('admin')
    // The new role takes effect on the person's very next request: they may now manage others.
    expect((await patch(member, admin.userId, 'member')).statusCode).toBe(200)
    expect((await roles(admin))[admin.userId]).toBe('member')
    // And the demoted one may not any more.
    const refused = await patch(admin, member.userId, 'member')
    expect(refused.statusCode).toBe(403)
    expect(json(refused).code).toBe('admin_required')
    expect((await patch(member, member.userId, 'owner')).statusCode).toBe(400)
    expect(json(await member.request({ method: 'PATCH', url: `/api/v1/members/${admin.userId}`, payload: {} })).code).toBe('validation_failed')
    expect((await patch(member, 'not-a-uuid', 'admin')).statusCode).toBe(400)
    expect(json(await patch(member, '0190d6f0-0000-7000-8000-000000000000', 'admin')).code).toBe('not_found')
  })

  it('never demotes or removes the last administrator', async () => {
    for (const res of [await patch(admin, admin.userId, 'member'), await remove(admin, admin.userId)]) {
      expect(res.statusCode).toBe(409)
      expect(res.headers['content-type']).toContain('application/problem+json')
      expect(json(res).code).toBe('last_admin')
    }
    expect((await roles(admin))[admin.userId]).toBe('admin')
    // With a second administrator, the first may step down, and then the second is the last.
    await patch(admin, member.userId, 'admin')
    expect((await patch(admin, admin.userId, 'member')).statusCode).toBe(200)
    expect(json(await remove(member, member.userId)).code).toBe('last_admin')
    expect(json(await patch(member, member.userId, 'member')).code).toBe('last_admin')
    // Setting an administrator's role to admin again is no change and always allowed.
    expect((await patch(member, member.userId, 'admin')).statusCode).toBe(200)
  })

  it('removes a member: their sessions and tokens here end at once, records lose their owner, other organizations keep them', async () => {
    const other = await createOrgWithAdmin(h.app, 'Other')
    await h.app.db.insertInto('memberships').values({ org_id: other.orgId, user_id: member.userId, role: 'member' }).execute()
    const client = await confidentialClient(h.app, admin.orgId)
    const tokens = await obtainTokens(h.app, member, client, { scope: 'crm:read' })
    expect((await api(h.app, tokens.access_token, { url: '/api/v1/accounts' })).statusCode).toBe(200)
    const account = json(await member.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Owned', owner_id: member.userId } }))
    expect(account.owner_id).toBe(member.userId)

    expect((await remove(member, admin.userId)).statusCode).toBe(403)
    const res = await remove(admin, member.userId)
    expect(res.statusCode).toBe(204)
    expect(Object.keys(await roles(admin))).toEqual([admin.userId])
    expect((await member.request({ method: 'GET', url: '/api/v1/me' })).statusCode).toBe(401)
    expect((await api(h.app, tokens.access_token, { url: '/api/v1/accounts' })).statusCode).toBe(401)
    expect(json(await admin.request({ method: 'GET', url: `/api/v1/accounts/${account.id}` })).owner_id).toBeNull()
    // Losing the owner is a change like any other: journaled as the remover's, with the old owner.
    const [latest] = json(await admin.request({ method: 'GET', url: `/api/v1/accounts/${account.id}/events` })).data
    expect(latest).toMatchObject({ type: 'account.updated', actor: { user_id: admin.userId, channel: 'app' }, data: { previous: { owner_id: member.userId }, object: { owner_id: null } } })
    // Still a person, still in the other organization.
    const left = await sql<{ org_id: string }>`SELECT org_id FROM memberships WHERE user_id = ${member.userId}`.execute(h.app.db)
    expect(left.rows.map((r) => r.org_id)).toEqual([other.orgId])
    expect(json(await remove(admin, member.userId)).code).toBe('not_found')
  })

  it('lets tokens with crm:read list members, and never change them', async () => {
    const client = await confidentialClient(h.app, admin.orgId)
    const reader = await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write' })
    const writeOnly = await obtainTokens(h.app, admin, client, { scope: 'crm:write' })
    expect(json(await api(h.app, reader.access_token, { url: '/api/v1/members' })).data).toHaveLength(2)
    const noRead = await api(h.app, writeOnly.access_token, { url: '/api/v1/members' })
    expect(noRead.statusCode).toBe(403)
    expect(json(noRead).code).toBe('insufficient_scope')
    for (const req of [
      { method: 'PATCH' as const, url: `/api/v1/members/${member.userId}`, payload: { role: 'admin' } },
      { method: 'DELETE' as const, url: `/api/v1/members/${member.userId}` },
      { method: 'POST' as const, url: '/api/v1/invitations', payload: { email: 'x@example.test', role: 'member' } },
      { method: 'GET' as const, url: '/api/v1/invitations' },
    ]) {
      const res = await api(h.app, reader.access_token, req)
      expect(res.statusCode, `${req.method} ${req.url}`).toBe(403)
      expect(json(res).code).toBe('session_required')
    }
    expect((await roles(admin))[member.userId]).toBe('member')
  })

  it("keeps each organization's members to itself", async () => {
    const b = await createOrgWithAdmin(h.app, 'Beta')
    const bMember = await addMember(h.app, b.orgId, 'member')
    expect(Object.keys(await roles(admin)).sort()).toEqual([admin.userId, member.userId].sort())
    const unknown = json(await patch(admin, '0190d6f0-0000-7000-8000-000000000000', 'admin'))
    for (const res of [await patch(admin, bMember.userId, 'admin'), await remove(admin, bMember.userId), await remove(admin, b.userId)]) {
      expect(res.statusCode).toBe(404)
      expect(json(res)).toEqual({ ...unknown, detail: json(res).detail })
    }
    expect(await roles(b)).toEqual({ [b.userId]: 'admin', [bMember.userId]: 'member' })
  })

  it.runIf(target === 'postgres')('leaves one administrator when two demote each other at the same moment', async () => {
    for (let round = 0; round < 8; round++) {
      await resetHarness(h)
      const a = await createOrgWithAdmin(h.app, 'Race')
      const b = await addMember(h.app, a.orgId, 'admin')
      const [ab, ba] = await Promise.all([patch(a, b.userId, 'member'), patch(b, a.userId, 'member')])
      const statuses = [ab.statusCode, ba.statusCode].sort()
      // One wins; the other finds itself no longer an administrator (403) or the target the last one (409).
      expect(statuses[0]).toBe(200)
      expect([403, 409]).toContain(statuses[1])
      const admins = Object.values(await roles(a)).filter((r) => r === 'admin')
      expect(admins).toHaveLength(1)

      const [ra, rb] = await Promise.all([remove(a, b.userId), remove(b, a.userId)])
      expect([ra.statusCode, rb.statusCode].filter((s) => s === 204).length).toBeLessThanOrEqual(1)
      const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM memberships WHERE org_id = ${a.orgId} AND role = 'admin'`.execute(h.app.db)
      expect(left.rows[0].n).toBe(1)
    }
  })
})
