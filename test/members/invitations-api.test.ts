/**
 * Invitations: creating (the link once, only its hash stored), replacing, refusing members and bad
 * input, listing, revoking; the page at the link for a new person, an existing account and the
 * person already signed in; single use (also two answers at once), expiry through the row's
 * expires_at, withdrawn and unknown links; who may invite; tenancy.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { addMember, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import type { OAuthHarness } from '../oauth/helpers.ts'
import { sha256 } from '../../src/shared/ids.ts'
import { withoutInvitationSecret } from '../../src/members/invitation-link.ts'
import { asSession, harnessPerFile, invite, linkPath, openLink, rolesBy, sessionOf, submitLink } from './helpers.ts'

const PASSWORD = 'correct horse battery'

describe.each(await targets())('invitations on %s', (target) => {
  const ctx = harnessPerFile(target)
  let h: OAuthHarness
  let admin: Member
  const list = async (as: Member) => json(await as.request({ method: 'GET', url: '/api/v1/invitations' })).data
  const memberRoles = (as: Member) => rolesBy(as, 'email')

  beforeEach(async () => {
    h = ctx.h
    admin = await createOrgWithAdmin(h.app, 'Acme')
  })

  it('answers the link once, stores only its hash, and lists the invitation without it', async () => {
    const created = await invite(admin, '  Nina@Example.test ', 'admin')
    expect(created).toMatchObject({ email: 'Nina@Example.test', role: 'admin', status: 'pending', email_status: 'not_configured', email_error: null, invited_by: { user_id: admin.userId, name: 'Admin' } })
    expect(created.invitation_url).toMatch(new RegExp(`^http://localhost:3000/invite/${created.id}\\.[A-Za-z0-9_-]{43}$`))
    const days = (Date.parse(created.expires_at) - Date.parse(created.created_at)) / 86_400_000
    expect(days).toBeCloseTo(7, 3)

    const secret = created.invitation_url.split('.').pop()
    const row = await h.app.db.selectFrom('invitations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow()
    expect(Buffer.from(row.token_hash).equals(sha256(secret))).toBe(true)
    expect(JSON.stringify(row)).not.toContain(secret)

    const listed = await list(admin)
    expect(listed).toEqual([{ ...created, invitation_url: undefined }].map(({ invitation_url: _, ...rest }) => rest))
    expect(JSON.stringify(listed)).not.toContain(secret)
    expect(withoutInvitationSecret(linkPath(created.invitation_url))).toBe(`/invite/${created.id}.[redacted]`)
  })

  it('refuses bad input, members, and replaces the open invitation of an address', async () => {
    const member = await addMember(h.app, admin.orgId)
    for (const [payload, field] of [
      [{ email: 'not-an-email', role: 'member' }, 'email'],
      [{ email: 'a@b.test', role: 'owner' }, 'role'],
      [{ email: 'a@b.test' }, 'role'],
      [{ email: 'a@b.test', role: 'member', extra: 1 }, 'extra'],
      [{ email: 'a\0@b.test', role: 'member' }, 'email'],
    ] as const) {
      const res = await admin.request({ method: 'POST', url: '/api/v1/invitations', payload })
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
      expect(json(res).errors.map((e: any) => e.field).join(' ')).toContain(field)
    }
    const clash = await admin.request({ method: 'POST', url: '/api/v1/invitations', payload: { email: member.email.toUpperCase(), role: 'admin' } })
    expect(clash.statusCode).toBe(409)
    expect(json(clash).code).toBe('already_member')

    const first = await invite(admin, 'sam@example.test', 'member')
    const second = await invite(admin, 'SAM@example.test', 'admin')
    expect((await list(admin)).map((i: any) => [i.id, i.role])).toEqual([[second.id, 'admin']])
    const old = await openLink(h.app, linkPath(first.invitation_url))
    expect(old.statusCode).toBe(410)
    expect(old.body).toContain('This invitation was withdrawn')
    expect((await openLink(h.app, linkPath(second.invitation_url))).statusCode).toBe(200)
  })

  it('lets a new person create their account and join; the link then works no more', async () => {
    const created = await invite(admin, 'nina@example.test', 'member')
    const path = linkPath(created.invitation_url)
    const page = await openLink(h.app, path)
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(page.body).toContain('Join Acme')
    expect(page.body).toContain('nina@example.test')
    expect(page.body).toContain('Create account and join')

    const short = await submitLink(h.app, path, { name: 'Nina', password: 'short' })
    expect(short.statusCode).toBe(400)
    expect(short.body).toContain('The password must be 8 to 256 characters.')
    const nul = await submitLink(h.app, path, { name: 'Nina\0', password: PASSWORD })
    expect(nul.statusCode).toBe(400)
    expect(nul.body).toContain('Your name must not contain NUL characters.')
    expect(await list(admin)).toHaveLength(1)

    const joined = await submitLink(h.app, path, { name: 'Nina Novak', password: PASSWORD })
    expect(joined.statusCode).toBe(303)
    expect(joined.headers.location).toBe('/app')
    const me = json(await asSession(h.app, sessionOf(joined), '/api/v1/me'))
    expect(me).toMatchObject({ user: { email: 'nina@example.test', name: 'Nina Novak' }, organization: { id: admin.orgId }, role: 'member' })
    expect(await memberRoles(admin)).toMatchObject({ 'nina@example.test': 'member' })
    expect(await list(admin)).toEqual([])

    for (const res of [await openLink(h.app, path), await submitLink(h.app, path, { name: 'Again', password: PASSWORD })]) {
      expect(res.statusCode).toBe(410)
      expect(res.body).toContain('This invitation has already been used')
    }
    // The account signs in like any other.
    const signIn = await h.app.inject({ method: 'POST', url: '/sign-in', payload: `email=nina%40example.test&password=${encodeURIComponent(PASSWORD)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(signIn.statusCode).toBe(303)
  })

  it('lets a person with an account sign in to join, or just confirm when signed in already', async () => {
    const elsewhere = await createOrgWithAdmin(h.app, 'Elsewhere')
    const first = await invite(admin, elsewhere.email, 'admin')
    const path = linkPath(first.invitation_url)
    const page = await openLink(h.app, path)
    expect(page.body).toContain('Sign in and join')
    expect(page.body).not.toContain('Your name')
    const wrong = await submitLink(h.app, path, { password: 'wrong password' })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.body).toContain('That password does not match this account.')
    const joined = await submitLink(h.app, path, { password: elsewhere.password })
    expect(joined.statusCode).toBe(303)
    const me = json(await asSession(h.app, sessionOf(joined), '/api/v1/me'))
    expect(me.organization.id).toBe(admin.orgId)
    expect(me.role).toBe('admin')
    expect(me.organizations.map((o: any) => o.id).sort()).toEqual([admin.orgId, elsewhere.orgId].sort())

    // Signed in as the invited account: one button, no password; the session moves to the new organization.
    const third = await createOrgWithAdmin(h.app, 'Third')
    const second = await invite(third, elsewhere.email, 'member')
    const path2 = linkPath(second.invitation_url)
    const confirm = await openLink(h.app, path2, elsewhere.session)
    expect(confirm.body).toContain(`Join ${'Third'}`)
    expect(confirm.body).not.toContain('type="password"')
    const done = await submitLink(h.app, path2, {}, { session: elsewhere.session })
    expect(done.statusCode).toBe(303)
    expect(json(await elsewhere.request({ method: 'GET', url: '/api/v1/me' })).organization.id).toBe(third.orgId)

    // Signed in as someone else: the page says so, and asks for the invited account's password.
    const fourth = await invite(admin, 'newcomer@example.test')
    const other = await openLink(h.app, linkPath(fourth.invitation_url), elsewhere.session)
    expect(other.body).toContain(`You are signed in as ${elsewhere.email}`)
    expect(other.body).toContain('Create account and join')
    const switched = await submitLink(h.app, linkPath(fourth.invitation_url), { name: 'Newcomer', password: PASSWORD }, { session: elsewhere.session })
    expect(switched.statusCode).toBe(303)
    expect(json(await asSession(h.app, sessionOf(switched), '/api/v1/me')).user.email).toBe('newcomer@example.test')
    // The other person's session in this browser ended with the switch.
    expect((await elsewhere.request({ method: 'GET', url: '/api/v1/me' })).statusCode).toBe(401)
  })

  it('shows an expired, withdrawn or unknown link for what it is', async () => {
    const expiring = await invite(admin, 'late@example.test')
    await sql`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = ${expiring.id}`.execute(h.app.db)
    expect((await list(admin)).map((i: any) => i.status)).toEqual(['expired'])
    for (const res of [await openLink(h.app, linkPath(expiring.invitation_url)), await submitLink(h.app, linkPath(expiring.invitation_url), { name: 'Late', password: PASSWORD })]) {
      expect(res.statusCode).toBe(410)
      expect(res.body).toContain('This invitation has expired')
    }
    expect(await memberRoles(admin)).not.toHaveProperty('late@example.test')
    // Re-inviting replaces the expired one with a fresh week.
    const again = await invite(admin, 'late@example.test')
    expect((await list(admin)).map((i: any) => [i.id, i.status])).toEqual([[again.id, 'pending']])

    const revoked = await invite(admin, 'gone@example.test')
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/invitations/${revoked.id}` })).statusCode).toBe(204)
    expect(json(await admin.request({ method: 'DELETE', url: `/api/v1/invitations/${revoked.id}` })).code).toBe('not_found')
    const withdrawn = await submitLink(h.app, linkPath(revoked.invitation_url), { name: 'Gone', password: PASSWORD })
    expect(withdrawn.statusCode).toBe(410)
    expect(withdrawn.body).toContain('This invitation was withdrawn')

    const path = linkPath(again.invitation_url)
    const wrongSecret = path.slice(0, -4) + (path.endsWith('AAAA') ? 'BBBB' : 'AAAA')
    for (const bad of [wrongSecret, '/invite/nonsense', `/invite/${again.id}`, `/invite/${again.id}.`, '/invite/0190d6f0-0000-7000-8000-000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const res = await openLink(h.app, bad)
      expect(res.statusCode, bad).toBe(404)
      expect(res.body).toContain('This invitation link is not valid')
      expect((await submitLink(h.app, bad, { name: 'X', password: PASSWORD })).statusCode).toBe(404)
    }
    const foreign = await submitLink(h.app, path, { name: 'X', password: PASSWORD }, { origin: 'https://evil.example' })
    expect(foreign.statusCode).toBe(403)
    expect((await list(admin)).map((i: any) => i.id)).toEqual([again.id])
  })

  it('lets exactly one of two answers at the same moment use a link', async () => {
    const created = await invite(admin, 'twice@example.test')
    const path = linkPath(created.invitation_url)
    const answers = await Promise.all([submitLink(h.app, path, { name: 'One', password: PASSWORD }), submitLink(h.app, path, { name: 'Two', password: PASSWORD })])
    expect(answers.map((a) => a.statusCode).filter((s) => s === 303)).toHaveLength(1)
    const users = await sql<{ name: string }>`SELECT name FROM users WHERE email_key = 'twice@example.test'`.execute(h.app.db)
    expect(users.rows).toHaveLength(1)
    expect(await memberRoles(admin)).toMatchObject({ 'twice@example.test': 'member' })
  })

  it('keeps one open invitation when an address is invited twice at the same moment', async () => {
    // Every send is answered with the invitation it created, even one replaced before its answer left.
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => admin.request({ method: 'POST', url: '/api/v1/invitations', payload: { email: `race${round}@example.test`, role: 'member' } })))
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201, 201])
      const open = (await list(admin)).filter((i: any) => i.email === `race${round}@example.test`)
      expect(open).toHaveLength(1)
      // Only the link of the invitation left open works.
      const working = await Promise.all(answers.map(async (a) => (await openLink(h.app, linkPath(json(a).invitation_url))).statusCode))
      expect(working.sort()).toEqual([200, 410, 410, 410, 410, 410])
    }
  })

  it('is for administrators in the app, and keeps each organization to itself', async () => {
    const member = await addMember(h.app, admin.orgId)
    const refused = await member.request({ method: 'POST', url: '/api/v1/invitations', payload: { email: 'x@example.test', role: 'member' } })
    expect(refused.statusCode).toBe(403)
    expect(json(refused).code).toBe('admin_required')
    expect((await member.request({ method: 'GET', url: '/api/v1/invitations' })).statusCode).toBe(403)

    const mine = await invite(admin, 'shared@example.test')
    const b = await createOrgWithAdmin(h.app, 'Beta')
    const theirs = await invite(b, 'shared@example.test')
    expect((await list(admin)).map((i: any) => i.id)).toEqual([mine.id])
    expect((await list(b)).map((i: any) => i.id)).toEqual([theirs.id])
    const res = await admin.request({ method: 'DELETE', url: `/api/v1/invitations/${theirs.id}` })
    expect(res.statusCode).toBe(404)
    expect((await list(b)).map((i: any) => i.id)).toEqual([theirs.id])
    // Joining one organization is not joining the other.
    await submitLink(h.app, linkPath(mine.invitation_url), { name: 'Shared', password: PASSWORD })
    expect(await memberRoles(b)).not.toHaveProperty('shared@example.test')
    expect((await openLink(h.app, linkPath(theirs.invitation_url))).body).toContain('Sign in and join')
  })

  it('pages the open invitations newest first', async () => {
    const made = []
    for (const n of [1, 2, 3]) made.push(await invite(admin, `p${n}@example.test`))
    const first = json(await admin.request({ method: 'GET', url: '/api/v1/invitations?limit=2' }))
    expect(first.data.map((i: any) => i.id)).toEqual([made[2].id, made[1].id])
    expect(first.has_more).toBe(true)
    const second = json(await admin.request({ method: 'GET', url: `/api/v1/invitations?limit=2&cursor=${first.next_cursor}` }))
    expect(second.data.map((i: any) => i.id)).toEqual([made[0].id])
    expect(second.has_more).toBe(false)
  })
})
