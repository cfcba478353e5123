// Shared by the source-client tests: a simulator on an ephemeral loopback port, tokens obtained
// through our own OAuth helpers (authorize URL -> the simulator's consent page "Allow" -> code
// exchange), connections opened with fast retries, and small readers for assertions.
import { startSourceSim, type SourceSim } from '../../../tools/source-sim/main.ts'
import type { SimOptions } from '../../../tools/source-sim/options.ts'
import { consent } from '../../source-sim/helpers.ts'
import { authorizationUrl, createPkcePair, exchangeCode, openSourceConnection, type SourceConnection, type SourceConnectionOptions, type SourceTokens } from '../../../src/migration/source/source-connection.ts'
import { readPages, type ReadPage, type ReadPagesOptions } from '../../../src/migration/source/record-reader.ts'
import { configureSourceOutbound } from '../../../src/migration/source/source-outbound.ts'
import type { RetryOptions } from '../../../src/migration/source/with-retry.ts'

export const CLIENT_ID = 'cairn-demo-client'
export const CLIENT_SECRET = 'cairn-demo-secret'
export const REDIRECT = 'http://127.0.0.1:9/callback'
/** Retries in milliseconds instead of seconds. */
export const FAST_RETRY: RetryOptions = { attempts: 5, baseMs: 2, maxMs: 10 }
export const FAST_POLL = { minMs: 5, maxMs: 20, timeoutMs: 10_000 }

/** The simulator is on loopback: tests allow private addresses unless a test says otherwise. */
export function allowLoopback(): void {
  configureSourceOutbound({ allowPrivate: true })
}

export function startSim(options: Partial<SimOptions> = {}): Promise<SourceSim> {
  return startSourceSim({ port: 0, host: '127.0.0.1', dataset: 'demo', ...options })
}

export function loginUrlOf(sim: SourceSim, sandbox = false): string {
  return sandbox ? sim.sandboxLoginUrl : sim.url
}

/** The Connect step as the service runs it: authorize URL, consent "Allow", code exchange. */
export async function connectByOAuth(sim: SourceSim, opts: { sandbox?: boolean } = {}): Promise<SourceTokens & { loginUrl: string; authorizeUrl: string }> {
  const loginUrl = loginUrlOf(sim, opts.sandbox)
  const { codeVerifier, codeChallenge } = createPkcePair()
  const authorizeUrl = await authorizationUrl({ loginUrl, clientId: CLIENT_ID, redirectUri: REDIRECT, state: 'st-1', codeChallenge, allowPrivate: true })
  const params = await consent(authorizeUrl)
  if (params.get('state') !== 'st-1') throw new Error('state not echoed')
  const tokens = await exchangeCode({ loginUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri: REDIRECT, code: params.get('code')!, codeVerifier, allowPrivate: true })
  return { ...tokens, loginUrl, authorizeUrl }
}

export function open(tokens: SourceTokens & { loginUrl: string }, opts: Partial<SourceConnectionOptions> & { withRefresh?: boolean } = {}): Promise<SourceConnection> {
  const { withRefresh = true, ...rest } = opts
  return openSourceConnection(
    { instanceUrl: tokens.instanceUrl, accessToken: tokens.accessToken, refreshToken: withRefresh ? tokens.refreshToken : null, loginUrl: tokens.loginUrl },
    { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, allowPrivate: true, retry: FAST_RETRY, ...rest },
  )
}

/** Reads every page; returns the pages (records and checkpoints). */
export async function readAll(sc: SourceConnection, opts: ReadPagesOptions, onPage?: (page: ReadPage, index: number) => void | Promise<void>): Promise<ReadPage[]> {
  const pages: ReadPage[] = []
  for await (const page of readPages(sc, { bulkPoll: FAST_POLL, ...opts })) {
    await onPage?.(page, pages.length)
    pages.push(page)
  }
  return pages
}

export function idsOf(pages: ReadPage[]): string[] {
  return pages.flatMap((p) => p.records.map((r) => r.Id as string))
}

/** Every id of an object, straight from the platform in Id order (the reference to compare with). */
export async function allIds(sc: SourceConnection, object: string): Promise<string[]> {
  const out: string[] = []
  let page = await sc.request<{ records: Array<{ Id: string }>; done: boolean; nextRecordsUrl?: string }>('reference ids', sc.path(`/query?q=${encodeURIComponent(`SELECT Id FROM ${object} ORDER BY Id`)}`))
  for (;;) {
    out.push(...page.records.map((r) => r.Id))
    if (page.done || !page.nextRecordsUrl) return out
    page = await sc.request('reference ids', page.nextRecordsUrl)
  }
}
