/**
 * Builds the real application on a test database, plus helpers that create an organization with a
 * signed-in administrator and send authenticated requests through `app.inject`.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { GENEROUS_RATE_LIMITS } from './service-process.ts'
import { createTestDatabase, type TargetName, type TestDatabase } from './databases.ts'
import { buildApp } from '../../src/app.ts'
import { loadConfig, type Config } from '../../src/config.ts'
import type { Database } from '../../src/db/connect.ts'
import { createOrganizationWithAdmin, addUserToOrganization } from '../../src/orgs/org.service.ts'
import { createSession, findSession, SESSION_COOKIE } from '../../src/orgs/session.service.ts'
import type { Clock } from '../../src/shared/clock.ts'

export function testConfig(overrides: Record<string, string> = {}): Config {
  // Quotas no test's load reaches, unless a test sets its own (test/http/rate-limits.test.ts).
  return loadConfig({ PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'silent', ...GENEROUS_RATE_LIMITS, ...overrides })
}

export async function buildTestApp(database: Database, overrides: Record<string, string> = {}, clock?: Clock): Promise<FastifyInstance> {
  const app = await buildApp({ config: testConfig(overrides), database, logger: false, clock })
  await app.ready()
  return app
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
  let tdb: TestDatabase
  let app: FastifyInstance
  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    app = await buildTestApp(tdb.database, overrides, clock)
  })
  afterAll(async () => {
    await app?.close()
    await tdb?.drop()
  })
  beforeEach(() => tdb.reset())
  return {
    get app() {
      return app
    },
    get tdb() {
      return tdb
    },
  }
}
