// Connecting to the source platform: the OAuth web server flow helpers (PKCE S256), opening a
// connection from stored tokens (version, identity, environment), and what refuses a connection
// (wrong token, the address policy at check time and at connect time, redirects, nothing listening).
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SourceSim } from '../../../tools/source-sim/main.ts'
import { exchangeCode, openSourceConnection, orgIdOfToken } from '../../../src/migration/source/source-connection.ts'
import { SourceAuthFailed, SourceRequestFailed, SourceUnreachable } from '../../../src/migration/source/source-errors.ts'
import { checkSourceUrl, configureSourceOutbound } from '../../../src/migration/source/source-outbound.ts'
import { allowLoopback, CLIENT_ID, CLIENT_SECRET, connectByOAuth, FAST_RETRY, open, REDIRECT, startSim } from './helpers.ts'

let sim: SourceSim

beforeAll(async () => {
  allowLoopback()
  sim = await startSim()
})
afterAll(() => sim?.close())

/** A TCP listener that only counts connections: proof that nothing connected. */
async function countingListener(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let n = 0
  const server = net.createServer((socket) => {
    n++
    socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, connections: () => n, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

describe('OAuth web server flow (Connect step)', () => {
  it('builds the authorize URL with state and an S256 challenge, and exchanges the code for tokens with a refresh token', async () => {
    const tokens = await connectByOAuth(sim)
    const url = new URL(tokens.authorizeUrl)
    expect(url.origin + url.pathname).toBe(`${sim.url}/services/oauth2/authorize`)
    expect(url.searchParams.get('response_type')).toBe('code')
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID)
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT)
    expect(url.searchParams.get('state')).toBe('st-1')
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(url.searchParams.get('scope')).toBe('api refresh_token')
    expect(tokens.instanceUrl).toBe(sim.url)
    expect(tokens.refreshToken).toMatch(/^5Aep/)
    expect(tokens.orgId).toBe(sim.production.orgId)
    expect(tokens.userId).toBe(sim.production.userId)
    // The fallback when userinfo is not allowed: the org id the access token carries.
    expect(orgIdOfToken(tokens.accessToken)).toBe(sim.production.orgId)
  })

  it('gives a working connection: identity, environment and the API version', async () => {
    const tokens = await connectByOAuth(sim)
    const sc = await open(tokens)
    expect(sc.identity).toEqual({ organizationId: sim.production.orgId, userId: sim.production.userId, environment: 'production' })
    expect(sc.apiVersion).toBe('62.0')
    expect(sc.canRefresh).toBe(true)
    expect(await sc.count('Account')).toBe(250)
    expect(sc.apiUsage?.limit).toBe(100_000)
  })

  it('the sandbox login URL gives the sandbox org', async () => {
    const tokens = await connectByOAuth(sim, { sandbox: true })
    expect(tokens.orgId).toBe(sim.sandbox.orgId)
    const sc = await open(tokens)
    expect(sc.identity.organizationId).toBe(sim.sandbox.orgId)
    expect(sc.identity.environment).toBe('sandbox')
    expect(await sc.count('Account')).toBe(40)
  })

  it('a code that is not valid (or already used) is SourceAuthFailed naming invalid_grant, without the code', async () => {
    const err = await exchangeCode({ loginUrl: sim.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri: REDIRECT, code: 'aPrxNotARealCode1234567890', codeVerifier: 'v'.repeat(43), allowPrivate: true }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SourceAuthFailed)
    expect((err as SourceAuthFailed).errorCode).toBe('invalid_grant')
    expect((err as Error).message).toMatch(/invalid_grant.*reconnect the source/)
    expect((err as Error).message).not.toContain('aPrxNotARealCode1234567890')
  })
})

describe('opening a connection from stored credentials', () => {
  it('uses the preferred version, or the newest the instance lists when that is lower', async () => {
    const tokens = await connectByOAuth(sim)
    expect((await open(tokens, { apiVersion: '55.0' })).apiVersion).toBe('55.0')
    expect((await open(tokens, { apiVersion: '99.0' })).apiVersion).toBe('62.0')
  })

  it('a wrong access token without a refresh token is SourceAuthFailed, and the message never shows the token', async () => {
    const bogus = `${sim.production.orgId.slice(0, 15)}!ARthisIsNotAValidTokenAtAll0123456789`
    const err = await openSourceConnection({ instanceUrl: sim.url, accessToken: bogus }, { allowPrivate: true, retry: FAST_RETRY }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SourceAuthFailed)
    expect((err as Error).message).toMatch(/INVALID_SESSION_ID.*no refresh token.*reconnect the source/)
    expect((err as Error).message).not.toContain('ARthisIsNotAValidToken')
  })

  it('a wrong access token with a refresh token that is not valid either is SourceAuthFailed ("refused to renew")', async () => {
    const err = await openSourceConnection(
      { instanceUrl: sim.url, accessToken: 'bogus-token-value', refreshToken: '5AepNotAValidRefreshToken000000000000', loginUrl: sim.url },
      { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, allowPrivate: true, retry: FAST_RETRY },
    ).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SourceAuthFailed)
    expect((err as Error).message).toMatch(/refused to renew the access token.*reconnect the source/)
    expect((err as Error).message).not.toContain('5AepNotAValidRefreshToken')
  })

  it('refuses src_instance_url on 127.0.0.1 when private addresses are not allowed, before any connection', async () => {
    const listener = await countingListener()
    try {
      const err = await openSourceConnection({ instanceUrl: `http://127.0.0.1:${listener.port}`, accessToken: 'x' }, { allowPrivate: false }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(SourceUnreachable)
      // Plain http is refused first when private addresses are not allowed; over https the address is named.
      expect((err as Error).message).toBe('src_instance_url must use https')
      const err2 = await openSourceConnection({ instanceUrl: `https://127.0.0.1:${listener.port}`, accessToken: 'x' }, { allowPrivate: false }).catch((e: unknown) => e)
      expect(err2).toBeInstanceOf(SourceUnreachable)
      expect((err2 as Error).message).toBe('src_instance_url resolves to a private or reserved address (127.0.0.1)')
      await expect(checkSourceUrl('https://localhost/', false)).rejects.toThrow(/src_instance_url resolves to a private or reserved address/)
      await expect(checkSourceUrl('https://user:pw@example.com/', false)).rejects.toThrow('src_instance_url must not contain a user name or password')
      await expect(checkSourceUrl('ftp://example.com/', false)).rejects.toThrow('src_instance_url must use https')
      expect(listener.connections()).toBe(0)
    } finally {
      await listener.close()
    }
  })

  it('the connect-time guard refuses a private address even after the URL check passed (DNS rebinding, refreshed instance URLs)', async () => {
    const tokens = await connectByOAuth(sim)
    configureSourceOutbound({ allowPrivate: false })
    try {
      // allowPrivate: true lets the URL check pass; the process policy at connect time still refuses.
      const err = await open(tokens, { allowPrivate: true }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(SourceUnreachable)
      expect((err as Error).message).toMatch(/127\.0\.0\.1 resolves to a private or reserved address \(127\.0\.0\.1\)/)
    } finally {
      allowLoopback()
    }
  })

  it('refuses redirects instead of following them with the access token', async () => {
    let targetHits = 0
    const target = http.createServer((_req, res) => {
      targetHits++
      res.end('[]')
    })
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`
    const redirector = http.createServer((req, res) => {
      res.writeHead(302, { location: `${targetUrl}${req.url}` })
      res.end()
    })
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve))
    try {
      const err = await openSourceConnection({ instanceUrl: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`, accessToken: 'secret-token-value' }, { allowPrivate: true, retry: FAST_RETRY }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(SourceRequestFailed)
      expect((err as Error).message).toMatch(/redirect to http:\/\/127\.0\.0\.1:\d+; redirects are not followed/)
      expect(targetHits).toBe(0)
    } finally {
      await new Promise((resolve) => redirector.close(resolve))
      await new Promise((resolve) => target.close(resolve))
    }
  })

  it('an unreachable port is SourceUnreachable after a bounded number of attempts', async () => {
    const listener = await countingListener()
    const port = listener.port
    await listener.close()
    const retries: number[] = []
    const started = performance.now()
    const err = await openSourceConnection({ instanceUrl: `http://127.0.0.1:${port}`, accessToken: 'x' }, {
      allowPrivate: true,
      retry: { attempts: 4, baseMs: 5, maxMs: 20, onRetry: ({ attempt }) => retries.push(attempt) },
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SourceUnreachable)
    expect((err as Error).message).toMatch(/connection refused.*gave up after 4 attempts/)
    expect(retries).toEqual([1, 2, 3])
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
