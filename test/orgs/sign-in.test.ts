import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'
import { addMember, buildTestApp, createOrgWithAdmin, json } from '../helpers/build-app.ts'
import { createOrganizationWithAdmin, addUserToOrganization } from '../../src/orgs/org.service.ts'
import { SESSION_COOKIE } from '../../src/orgs/session.service.ts'
import { MAX_FAILURES } from '../../src/orgs/sign-in-throttle.ts'

function sessionCookie(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === SESSION_COOKIE)?.value
}

describe.each(await targets())('first run, sign-in and sessions on %s', (target) => {
  let tdb: TestDatabase
  let app: FastifyInstance

  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    app = await buildTestApp(tdb.database)
  })
  afterAll(async () => {
    await app?.close()
    await tdb?.drop()
  })
  beforeEach(() => tdb.reset())

  const form = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload: new URLSearchParams(body).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } })

  it('sends a fresh install to the first-run page, which creates the organization and signs in', async () => {
    expect((await app.inject({ url: '/' })).headers.location).toBe('/setup')
    expect((await app.inject({ url: '/sign-in' })).headers.location).toBe('/setup')
    const page = await app.inject({ url: '/setup' })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('Organization name')
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'")

    const bad = await form('/setup', { org_name: 'Acme', name: 'Ann', email: 'not-an-email', password: 'password123' })
    expect(bad.statusCode).toBe(400)
    expect(bad.body).toContain('email must be an email address')
    expect(bad.body).toContain('value="Acme"') // what was typed is kept

    const ok = await form('/setup', { org_name: 'Acme', name: 'Ann', email: 'ann@acme.test', password: 'password123' })
    expect(ok.statusCode).toBe(303)
    expect(ok.headers.location).toBe('/app')
    const cookie = ok.cookies.find((c) => c.name === SESSION_COOKIE)!
    expect(cookie.httpOnly).toBe(true)
    expect(cookie.sameSite).toBe('Lax')
    const me = json(await app.inject({ url: '/api/v1/me', cookies: { [SESSION_COOKIE]: cookie.value } }))
    expect(me).toMatchObject({ user: { email: 'ann@acme.test', name: 'Ann' }, organization: { name: 'Acme' }, role: 'admin' })
    // The first-run page is gone once an organization exists.
    expect((await app.inject({ url: '/setup' })).headers.location).toBe('/sign-in')
    expect((await form('/setup', { org_name: 'Evil', name: 'E', email: 'e@e.test', password: 'password123' })).headers.location).toBe('/sign-in')
  })

  it('signs in with the right password only, with one message for every failure', async () => {
    await createOrganizationWithAdmin(app.db, { name: 'Acme', adminEmail: 'Ann@Acme.test', adminPassword: 'password123' })
    const page = await app.inject({ url: '/sign-in?return_to=/app/contacts' })
    expect(page.body).toMatch(/<label for="email">Email<\/label>/)
    expect(page.body).toMatch(/<label for="password">Password<\/label>/)
    expect(page.body).toContain('>Sign in</button>')
    const wrong = await form('/sign-in', { email: 'ann@acme.test', password: 'nope-nope' })
    const unknown = await form('/sign-in', { email: 'nobody@acme.test', password: 'nope-nope' })
    expect(wrong.statusCode).toBe(401)
    expect(unknown.statusCode).toBe(401)
    const message = 'That email and password do not match an account.'
    expect(wrong.body).toContain(message)
    expect(unknown.body).toContain(message)
    expect(sessionCookie(wrong)).toBeUndefined()
    const ok = await form('/sign-in', { email: ' ANN@acme.test ', password: 'password123', return_to: '/app/contacts' })
    expect(ok.statusCode).toBe(303)
    expect(ok.headers.location).toBe('/app/contacts')
    expect(sessionCookie(ok)).toBeTruthy()
    for (const evil of ['//evil.test/x', 'https://evil.test', '/\\evil.test']) {
      const r = await form('/sign-in', { email: 'ann@acme.test', password: 'password123', return_to: evil })
      expect(r.headers.location, evil).toBe('/app')
    }
  })

  it('never redirects off-site or fails on a return_to with control characters, over a real socket', async () => {
    await createOrganizationWithAdmin(app.db, { name: 'Acme', adminEmail: 'ann@acme.test', adminPassword: 'password123' })
    // A real server: Node's own header checks (CR/LF in Location) only run on a real response.
    const server = await buildTestApp(tdb.database)
    const base = await server.listen({ port: 0, host: '127.0.0.1' })
    try {
      for (const evil of ['/\t/evil.example', '/\n/evil.example', '/app\r\nSet-Cookie: x=1', '/.//evil.example', '\u0085//evil.example']) {
        const res = await fetch(`${base}/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email: 'ann@acme.test', password: 'password123', return_to: evil }).toString(),
        })
        expect(res.status, JSON.stringify(evil)).toBe(303)
        const location = res.headers.get('location')!
        expect(new URL(location.replace(/[\t\n\r]/g, ''), 'http://localhost:3000').origin, JSON.stringify(evil)).toBe('http://localhost:3000')
        const page = await fetch(`${base}/sign-in?return_to=${encodeURIComponent(evil)}`)
        expect(page.status).toBe(200)
      }
    } finally {
      await server.close()
    }
  })

  it('refuses sign-in and setup posts from another origin', async () => {
    await createOrganizationWithAdmin(app.db, { name: 'Acme', adminEmail: 'ann@acme.test', adminPassword: 'password123' })
    const res = await form('/sign-in', { email: 'ann@acme.test', password: 'password123' }, { origin: 'https://evil.test' })
    expect(res.statusCode).toBe(403)
    expect(sessionCookie(res)).toBeUndefined()
  })

  it('throttles repeated failures per account', async () => {
    await createOrganizationWithAdmin(app.db, { name: 'Acme', adminEmail: 'ann@acme.test', adminPassword: 'password123' })
    for (let i = 0; i < MAX_FAILURES; i++) expect((await form('/sign-in', { email: 'ann@acme.test', password: `wrong${i}xx` })).statusCode).toBe(401)
    const locked = await form('/sign-in', { email: 'ann@acme.test', password: 'password123' })
    expect(locked.statusCode).toBe(429)
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0)
    expect(sessionCookie(locked)).toBeUndefined()
  })

  it('requires a session or token on the API, and the CSRF header on cookie writes', async () => {
    const admin = await createOrgWithAdmin(app)
    const anon = await app.inject({ url: '/api/v1/accounts' })
    expect(anon.statusCode).toBe(401)
    expect(anon.headers['www-authenticate']).toBe('Bearer resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource"')
    expect(anon.headers['content-type']).toContain('application/problem+json')
    const bogus = await app.inject({ url: '/api/v1/accounts', cookies: { [SESSION_COOKIE]: 'x'.repeat(43) } })
    expect(bogus.statusCode).toBe(401)
    const noCsrf = await app.inject({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'x' }, cookies: { [SESSION_COOKIE]: admin.session } })
    expect(noCsrf.statusCode).toBe(403)
    expect(json(noCsrf).code).toBe('csrf_failed')
    const wrongCsrf = await app.inject({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'x' }, cookies: { [SESSION_COOKIE]: admin.session }, headers: { 'x-csrf-token': 'nope' } })
    expect(wrongCsrf.statusCode).toBe(403)
    expect(json(await admin.request({ url: '/api/v1/accounts' })).data).toHaveLength(0)
    expect((await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'x' } })).statusCode).toBe(201)
  })

  it('ends the session on sign-out and after expiry', async () => {
    const admin = await createOrgWithAdmin(app)
    const out = await app.inject({ method: 'POST', url: '/sign-out', cookies: { [SESSION_COOKIE]: admin.session } })
    expect(out.statusCode).toBe(303)
    expect((await admin.request({ url: '/api/v1/me' })).statusCode).toBe(401)
    const other = await createOrgWithAdmin(app)
    await app.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).execute()
    expect((await other.request({ url: '/api/v1/me' })).statusCode).toBe(401)
  })

  it('lets a person in two organizations switch between them, and not into a third', async () => {
    const a = await createOrgWithAdmin(app, 'A')
    const b = await createOrgWithAdmin(app, 'B')
    await addUserToOrganization(app.db, b.orgId, { email: a.email, password: a.password, role: 'member' })
    const me = json(await a.request({ url: '/api/v1/me' }))
    expect(me.organizations.map((o: any) => o.id).sort()).toEqual([a.orgId, b.orgId].sort())
    expect((await a.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'in A' } })).statusCode).toBe(201)
    expect((await a.request({ method: 'POST', url: '/api/v1/me/active-organization', payload: { organization_id: b.orgId } })).statusCode).toBe(204)
    const now = json(await a.request({ url: '/api/v1/me' }))
    expect(now).toMatchObject({ organization: { id: b.orgId }, role: 'member' })
    expect(json(await a.request({ url: '/api/v1/accounts' })).data).toHaveLength(0)
    const c = await createOrgWithAdmin(app, 'C')
    expect((await a.request({ method: 'POST', url: '/api/v1/me/active-organization', payload: { organization_id: c.orgId } })).statusCode).toBe(404)
  })

  it('gives members their role', async () => {
    const admin = await createOrgWithAdmin(app)
    const member = await addMember(app, admin.orgId)
    expect(json(await member.request({ url: '/api/v1/me' })).role).toBe('member')
  })
})
