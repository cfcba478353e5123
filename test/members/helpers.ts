/** Helpers of the members tests: inviting through the API and answering the link's page as a browser would. */
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { TargetName } from '../helpers/databases.ts'
import { closeHarness, createHarness, resetHarness, type OAuthHarness } from '../oauth/helpers.ts'
import { json, type Member } from '../helpers/build-app.ts'
import { SESSION_COOKIE } from '../../src/orgs/session.service.ts'

export const ORIGIN = 'http://localhost:3000'

export async function invite(admin: Member, email: string, role: 'admin' | 'member' = 'member'): Promise<any> {
  const res = await admin.request({ method: 'POST', url: '/api/v1/invitations', payload: { email, role } })
  if (res.statusCode !== 201) throw new Error(`invite ${email}: ${res.statusCode} ${res.body}`)
  return json(res)
}

/** The path of an invitation link (the app answers it under PUBLIC_URL). */
export function linkPath(invitationUrl: string): string {
  return new URL(invitationUrl).pathname
}

export function openLink(app: FastifyInstance, path: string, session?: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: path, cookies: session ? { [SESSION_COOKIE]: session } : {} })
}

export function submitLink(app: FastifyInstance, path: string, form: Record<string, string>, opts: { session?: string; origin?: string } = {}): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: path,
    payload: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: opts.origin ?? ORIGIN },
    cookies: opts.session ? { [SESSION_COOKIE]: opts.session } : {},
  })
}

/** The session cookie a successful join sets. */
export function sessionOf(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE)
  if (!cookie) throw new Error(`no session cookie (status ${res.statusCode})`)
  return cookie.value
}

export function asSession(app: FastifyInstance, session: string, url: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url, cookies: { [SESSION_COOKIE]: session } })
}

/** One harness (database, app, clock) for a test file, emptied before each test. Call inside a describe. */
export function harnessPerFile(target: TargetName, overrides: Record<string, string> = {}): { readonly h: OAuthHarness } {
  let h: OAuthHarness
  beforeAll(async () => {
    h = await createHarness(target, overrides)
  })
  afterAll(() => closeHarness(h))
  beforeEach(() => resetHarness(h))
  return {
    get h() {
      return h
    },
  }
}

/** The organization's members as `{ [user_id or email]: role }`, as `as` lists them. */
export async function rolesBy(as: Member, key: 'user_id' | 'email'): Promise<Record<string, string>> {
  return Object.fromEntries(json(await as.request({ method: 'GET', url: '/api/v1/members' })).data.map((m: any) => [m[key], m.role]))
}
