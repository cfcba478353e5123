// Shared by the simulator's tests: start a real simulator on an ephemeral loopback port and log a
// real jsforce Connection in through the OAuth web server flow (authorize page -> "Allow" -> code
// -> token), exactly as the migration wizard will.
import jsforce from 'jsforce'
import { startSourceSim, type SourceSim } from '../../tools/source-sim/main.ts'
import type { SimOptions } from '../../tools/source-sim/options.ts'

export const CLIENT_ID = 'cairn-demo-client'
export const CLIENT_SECRET = 'cairn-demo-secret'
export const REDIRECT = 'http://127.0.0.1:9/callback'
export const VERSION = '62.0'

export function start(options: Partial<SimOptions> = {}): Promise<SourceSim> {
  return startSourceSim({ port: 0, host: '127.0.0.1', dataset: 'demo', ...options })
}

/** Opens the authorize URL, submits the consent form with "Allow", returns the redirect's query. */
export async function consent(authorizeUrl: string, decision: 'allow' | 'deny' = 'allow'): Promise<URLSearchParams> {
  const pageRes = await fetch(authorizeUrl)
  if (pageRes.status !== 200) throw new Error(`authorize page: ${pageRes.status} ${await pageRes.text()}`)
  const html = await pageRes.text()
  if (!html.includes('>Allow</button>')) throw new Error('no Allow button')
  const form = new URLSearchParams()
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(m[1], decodeEntities(m[2]))
  form.set('decision', decision)
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]
  const res = await fetch(new URL(decodeEntities(action), authorizeUrl), { method: 'POST', body: form, redirect: 'manual' })
  if (res.status !== 302) throw new Error(`consent: ${res.status} ${await res.text()}`)
  return new URL(res.headers.get('location')!).searchParams
}

function decodeEntities(s: string): string {
  return s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
}

export async function login(sim: SourceSim, opts: { sandbox?: boolean; pkce?: boolean; scope?: string } = {}): Promise<jsforce.Connection> {
  const oauth2 = new jsforce.OAuth2({
    clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri: REDIRECT,
    loginUrl: opts.sandbox ? sim.sandboxLoginUrl : sim.url, useVerifier: opts.pkce ?? true,
  })
  const conn = new jsforce.Connection({ oauth2, version: VERSION })
  const params = await consent(oauth2.getAuthorizationUrl({ scope: opts.scope ?? 'api refresh_token openid', state: 'xyz' }))
  if (params.get('state') !== 'xyz') throw new Error('state not echoed')
  await conn.authorize(params.get('code')!)
  return conn
}

/** A raw Bearer token for plain-fetch tests. */
export async function token(sim: SourceSim, sandbox = false): Promise<string> {
  const conn = await login(sim, { sandbox })
  return conn.accessToken!
}

export async function api(sim: SourceSim, tok: string, path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(sim.url + path, { ...init, headers: { Authorization: `Bearer ${tok}`, ...(init.headers ?? {}) } })
  const text = await res.text()
  const type = res.headers.get('content-type') ?? ''
  return { status: res.status, headers: res.headers, body: type.includes('json') && text ? JSON.parse(text) : text }
}
