/**
 * A real listening service on loopback for tests that need real HTTP (OAuth libraries, browsers,
 * MCP clients), built by test-app.ts on the test's database, plus the browser-like steps they share
 * (sign in, consent).
 */
import type { FastifyInstance } from 'fastify'
import type { Database } from '../../src/db/connect.ts'
import type { Clock } from '../../src/shared/clock.ts'
import { freePort, startTestApp } from './test-app.ts'

export { freePort }

export interface LiveService {
  app: FastifyInstance
  url: string
  close(): Promise<void>
}

export async function startLiveService(database: Database, options: { clock?: Clock; env?: Record<string, string> } = {}): Promise<LiveService> {
  const { app, url } = await startTestApp({ database, listen: true, env: { ALLOW_PRIVATE_OUTBOUND: 'true', ...options.env }, clock: options.clock })
  return { app, url: url!, close: () => app.close() }
}

/** Signs in through the real sign-in form and returns the session cookie header. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/sign-in`, { method: 'POST', body: new URLSearchParams({ email, password }), redirect: 'manual' })
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cairn_session='))
  if (res.status !== 303 || !cookie) throw new Error(`sign-in failed: ${res.status}`)
  return cookie.split(';')[0]
}

/** Reads the consent form of an authorize URL and submits a decision, as a browser would. */
export async function consent(authorizeUrl: string, cookie: string, decision: 'allow' | 'deny' = 'allow', orgId?: string): Promise<URL> {
  const page = await fetch(authorizeUrl, { headers: { cookie }, redirect: 'manual' })
  if (page.status !== 200) throw new Error(`authorize answered ${page.status}: ${(await page.text()).slice(0, 300)}`)
  const html = await page.text()
  const fields = new URLSearchParams()
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields.append(m[1], decodeHtml(m[2]))
  const select = /<select id="org_id" name="org_id">.*?<option value="([^"]+)"/s.exec(html)
  if (select) fields.set('org_id', orgId ?? select[1])
  fields.set('decision', decision)
  const origin = new URL(authorizeUrl).origin
  const res = await fetch(`${origin}/oauth/authorize`, { method: 'POST', body: fields, headers: { cookie, origin }, redirect: 'manual' })
  if (res.status !== 303) throw new Error(`consent answered ${res.status}: ${(await res.text()).slice(0, 300)}`)
  return new URL(res.headers.get('location')!)
}

function decodeHtml(s: string): string {
  return s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
}
