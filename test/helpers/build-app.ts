/**
 * The application under test answering `app.inject` (built by test-app.ts), one per test file, plus
 * helpers that create an organization with a signed-in administrator and send authenticated requests.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { startTestApp, testConfig, type TestApp } from './test-app.ts'
import type { TargetName, TestDatabase } from './databases.ts'
import type { Database } from '../../src/db/connect.ts'
import { createOrganizationWithAdmin, addUserToOrganization } from '../../src/orgs/org.service.ts'
import { createSession, findSession, SESSION_COOKIE } from '../../src/orgs/session.service.ts'
import type { Clock } from '../../src/shared/clock.ts'

export { testConfig }

export async function buildTestApp(database: Database, overrides: Record<string, string> = {}, clock?: Clock): Promise<FastifyInstance> {
  return (await startTestApp({ database, env: overrides, clock })).app
}

export interface Member {
  orgId: string
  userId: string
  email: string
  password: string
  session: string
  csrf: string
  /** Sends a request as this member (session cookie + CSRF header). */
  request(opts: InjectOptions): Promise<LightMyRequestResponse>
}

let counter = 0

async function memberOf(app: FastifyInstance, orgId: string, userId: string, email: string, password: string): Promise<Member> {
  const session = await createSession(app.db, userId, orgId, 3600)
  const csrf = (await findSession(app.db, session))!.csrfToken
  return {
    orgId,
    userId,
    email,
    password,
    session,
    csrf,
    request(opts) {
      return app.inject({
        ...opts,
        cookies: { [SESSION_COOKIE]: session, ...(opts.cookies ?? {}) },
        headers: { 'x-csrf-token': csrf, ...(opts.headers ?? {}) },
      })
    },
  }
}

export async function createOrgWithAdmin(app: FastifyInstance, name = 'Org'): Promise<Member> {
  counter++
  const email = `admin${counter}-${Date.now()}@example.test`
  const password = 'correct horse battery'
  const { orgId, userId } = await createOrganizationWithAdmin(app.db, { name: `${name} ${counter}`, adminEmail: email, adminPassword: password, adminName: 'Admin' })
  return memberOf(app, orgId, userId, email, password)
}

export async function addMember(app: FastifyInstance, orgId: string, role: 'admin' | 'member' = 'member'): Promise<Member> {
  counter++
  const email = `member${counter}-${Date.now()}@example.test`
  const password = 'correct horse battery'
  const { userId } = await addUserToOrganization(app.db, orgId, { email, password, role })
  return memberOf(app, orgId, userId, email, password)
}

export function json<T = any>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T
}

/**
 * One database and one app for a whole test file (PGlite is slow to create), emptied before each
 * test. Call inside a describe; read `.app` and `.tdb` inside tests and hooks.
 */
export function appPerFile(target: TargetName, overrides: Record<string, string> = {}, clock?: Clock): { readonly app: FastifyInstance; readonly tdb: TestDatabase } {
  let built: TestApp
  beforeAll(async () => {
    built = await startTestApp({ database: target, env: overrides, clock })
  })
  afterAll(() => built?.close())
  beforeEach(() => built.tdb!.reset())
  return {
    get app() {
      return built.app
    },
    get tdb() {
      return built.tdb!
    },
  }
}
