/**
 * Revocation across processes: two service processes share one PostgreSQL; an administrator revokes
 * a client through the first, and the very next request with its token through the second answers
 * 401 invalid_token (no cache to invalidate: every bearer check reads the client's status).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPostgresDatabase, isPostgresReachable } from '../helpers/databases.ts'
import { consent, freePort, signIn } from '../helpers/live-service.ts'
import { childStatementCapture } from '../helpers/statement-capture.ts'
import { openPostgres } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { createOrgClient } from '../../src/oauth/index.ts'
import crypto from 'node:crypto'

const ROOT = path.resolve(import.meta.dirname, '../..')
const reachable = await isPostgresReachable()
if (!reachable && process.env.CI === 'true') throw new Error('CI=true and PostgreSQL is not reachable')

async function startProcess(databaseUrl: string, publicUrl: string, port: number): Promise<ChildProcess> {
  const capture = childStatementCapture() // its statements meet the Citus query rules check too
  const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), [...capture.nodeArgs, path.join(ROOT, 'src/server.ts')], {
    env: { ...process.env, ...capture.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: publicUrl, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  })
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('service process did not start')
}

// PostgreSQL only: the embedded database is one process by design.
describe.runIf(reachable)('revocation with two service processes on one PostgreSQL', () => {
  let db: { url: string; drop(): Promise<void> }
  const children: ChildProcess[] = []
  let portA: number
  let portB: number
  const publicUrl = 'http://127.0.0.1:1' // both processes are one service behind one public URL

  beforeAll(async () => {
    db = await createPostgresDatabase()
    const database = await openPostgres(db.url)
    await migrateToLatest(database)
    await database.close()
    portA = await freePort()
    portB = await freePort()
    children.push(await startProcess(db.url, publicUrl, portA), await startProcess(db.url, publicUrl, portB))
  }, 60_000)
  afterAll(async () => {
    for (const c of children) c.kill('SIGTERM')
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))))
    await db?.drop()
  })

  it('a revoke through process A is seen by process B on the next request', async () => {
    const database = await openPostgres(db.url)
    const { orgId } = await createOrganizationWithAdmin(database.db, { name: 'Two', adminEmail: 'two@example.test', adminPassword: 'password123' })
    const client = await createOrgClient(database.db, orgId, { name: 'Revokable', redirectUris: ['https://r.example.test/cb'], scopes: ['crm:read'] }, 'settings')
    await database.close()
    const a = `http://127.0.0.1:${portA}`
    const b = `http://127.0.0.1:${portB}`
    const cookie = await signIn(a, 'two@example.test', 'password123')
    const verifier = crypto.randomBytes(32).toString('base64url')
    const challenge = crypto.createHash('sha256').update(verifier).digest('base64url')
    const cb = await consent(`${a}/oauth/authorize?response_type=code&client_id=${client.client_id}&code_challenge=${challenge}&code_challenge_method=S256`, cookie)
    const tokenRes = await fetch(`${b}/api/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: cb.searchParams.get('code')!, code_verifier: verifier, client_id: client.client_id, client_secret: client.client_secret }),
    })
    expect(tokenRes.status).toBe(200)
    const { access_token } = await tokenRes.json()
    const call = () => fetch(`${b}/api/v1/accounts`, { headers: { authorization: `Bearer ${access_token}` } })
    expect((await call()).status).toBe(200)
    expect((await call()).status).toBe(200)

    const me = await (await fetch(`${a}/api/v1/me`, { headers: { cookie } })).json()
    const revoke = await fetch(`${a}/api/v1/settings/api-clients/${client.client_id}`, { method: 'DELETE', headers: { cookie, 'x-csrf-token': me.csrf_token } })
    expect(revoke.status).toBe(204)
    const after = await call()
    expect(after.status).toBe(401)
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"')
  }, 60_000)
})
