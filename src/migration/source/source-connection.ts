/**
 * Opens a connection to the source platform from stored credentials: checks the URLs against the
 * address policy before anything connects, builds the jsforce Connection (explicit API version,
 * OAuth2 client when a refresh token exists so jsforce refreshes on 401, and the new token handed
 * to `onTokenRefresh` to be persisted), verifies the token with one cheap call and finds the org.
 *
 * Every later platform call goes through `SourceConnection.request` / `requestText`: one place
 * with the retry policy (with-retry.ts) and the error classification (source-errors.ts).
 */
import { EventEmitter } from 'node:events'
import type { Connection, HttpRequest, Schema } from 'jsforce'
import type { SourceEnvironment } from '../migration.types.ts'
import { classifySourceError, SourceError, type ClassifyContext } from './source-errors.ts'
import { checkSourceUrl, ensureSourceOutbound, guardedJsforce, trimSlash, type Jsforce } from './source-outbound.ts'
import { countRecords } from './soql.ts'
import { withRetry, type RetryOptions } from './with-retry.ts'

/** The newest API version this client was written and tested against (spec: source-platform.md §2.1). */
export const PREFERRED_API_VERSION = '62.0'
/** Bulk API 2.0 query jobs need 47.0 (spec §1.8); the keyset reader and recordCount need 40.0. */
export const MIN_API_VERSION = 47
export const DEFAULT_LOGIN_URL = 'https://login.salesforce.com'

export interface SourceCredentials {
  instanceUrl: string
  accessToken: string
  refreshToken?: string | null
  /** The login host the token came from (login., test., My Domain); refreshes go there. */
  loginUrl?: string | null
}

export interface SourceConnectionOptions {
  clientId?: string
  clientSecret?: string
  /** Preferred API version (default 62.0); lowered to the newest the instance lists. */
  apiVersion?: string
  allowPrivate: boolean
  /** Called after jsforce refreshed the access token, to persist it (encrypted) for the next run. */
  onTokenRefresh?: (accessToken: string, info: { instanceUrl: string }) => Promise<void> | void
  retry?: RetryOptions
}

export interface SourceIdentity {
  organizationId: string | null
  userId: string | null
  environment: SourceEnvironment | null
}

/** A plain-text response with its headers (Bulk CSV pages, whose `Sforce-Locator` header matters). */
export interface TextResponse {
  body: string
  headers: Record<string, string>
}

type TextApi = InstanceType<Jsforce['HttpApi']>
let textApiClass: (new (conn: Connection, options: object) => TextApi) | null = null

// Answers text/csv as the raw string (jsforce would parse the whole page into objects itself)
// while JSON error bodies still become errors with their errorCode. Defined once jsforce is loaded.
function textApiOf(HttpApi: Jsforce['HttpApi']): new (conn: Connection, options: object) => TextApi {
  textApiClass ??= class extends HttpApi<Schema> {
    override getResponseContentType(response: Parameters<InstanceType<Jsforce['HttpApi']>['getResponseContentType']>[0]) {
      const type = super.getResponseContentType(response)
      return type && /^text\/csv/i.test(type) ? 'text/plain' : type
    }
  }
  return textApiClass
}

export class SourceConnection {
  readonly conn: Connection
  /** API version of every call (settled by openSourceConnection). */
  apiVersion: string
  /** Org, user and environment (settled by openSourceConnection). */
  identity: SourceIdentity
  readonly canRefresh: boolean
  private readonly retry: RetryOptions
  private persisting: Promise<void> = Promise.resolve()
  private persistError: unknown = null
  private readonly events = new EventEmitter()

  constructor(conn: Connection, init: { apiVersion: string; identity: SourceIdentity; canRefresh: boolean; retry?: RetryOptions; onTokenRefresh?: SourceConnectionOptions['onTokenRefresh'] }) {
    this.conn = conn
    this.apiVersion = init.apiVersion
    this.identity = init.identity
    this.canRefresh = init.canRefresh
    this.retry = init.retry ?? {}
    const onTokenRefresh = init.onTokenRefresh
    if (onTokenRefresh) {
      // jsforce emits `refresh` synchronously and does not wait; calls wait for the write below
      // before returning, so a page is never handed on while its token is still unsaved.
      conn.on('refresh', (accessToken: string) => {
        this.persisting = this.persisting
          .then(() => onTokenRefresh(accessToken, { instanceUrl: conn.instanceUrl }))
          .catch((err: unknown) => {
            this.persistError = err
          })
      })
    }
  }

  get instanceUrl(): string {
    return this.conn.instanceUrl
  }

  /** `Sforce-Limit-Info` of the last response: API requests used of the daily allowance. */
  get apiUsage(): { used: number; limit: number } | null {
    return this.conn.limitInfo?.apiUsage ?? null
  }

  /** `/services/data/vXX.X` + path. */
  path(rest: string): string {
    return `/services/data/v${this.apiVersion}${rest}`
  }

  /** Observe retries (logging, tests). */
  onRetry(listener: (info: { what: string; attempt: number; delayMs: number; error: SourceError }) => void): void {
    this.events.on('retry', listener)
  }

  /** One platform call with the retry policy and error classification. */
  async call<T>(what: string, fn: (conn: Connection) => Promise<T>): Promise<T> {
    const conn = this.conn
    // Read when an error is classified: a refresh during the call may have replaced the token.
    const ctx: ClassifyContext = { what, canRefresh: this.canRefresh, get secrets() { return [conn.accessToken, conn.refreshToken] } }
    const result = await withRetry(() => fn(this.conn), {
      ...this.retry,
      onRetry: (info) => {
        this.retry.onRetry?.(info)
        this.events.emit('retry', { what, ...info })
      },
    }, ctx)
    await this.persisting
    if (this.persistError) {
      const err = this.persistError
      this.persistError = null
      throw err
    }
    return result
  }

  /** A REST call (JSON answered as parsed JSON). `url` may be absolute, `/services/...` or relative to the version root. */
  request<T>(what: string, req: string | HttpRequest): Promise<T> {
    return this.call(what, (conn) => conn.request<T>(req) as Promise<T>)
  }

  /** A call answered as text with its response headers (Bulk CSV results). */
  requestText(what: string, req: HttpRequest): Promise<TextResponse> {
    return this.call(what, async (conn) => {
      // jsforce is loaded by now (openSourceConnection made this connection with it).
      const TextApi = textApiOf((await guardedJsforce()).HttpApi)
      const api = new TextApi(conn, {})
      let headers: Record<string, string> = {}
      api.on('response', (res: { headers?: Record<string, string> }) => {
        headers = res.headers ?? {}
      })
      const url = req.url.startsWith('/') ? conn.instanceUrl + req.url : req.url
      const body = await api.request<string>({ ...req, url })
      return { body: typeof body === 'string' ? body : String(body ?? ''), headers }
    })
  }

  /** Exact record count of an object (`SELECT COUNT()`). */
  count(object: string): Promise<number> {
    return countRecords(this, object)
  }

  /** Stops forwarding refresh events (the connection itself holds no sockets of its own). */
  close(): void {
    this.conn.removeAllListeners('refresh')
    this.events.removeAllListeners()
  }
}

// The Connect step's OAuth helpers live in source-oauth.ts; the service reaches them from here too.
export { authorizationUrl, createPkcePair, exchangeCode, type SourceTokens } from './source-oauth.ts'

export async function openSourceConnection(creds: SourceCredentials, opts: SourceConnectionOptions): Promise<SourceConnection> {
  ensureSourceOutbound(opts.allowPrivate)
  const loginUrl = trimSlash(creds.loginUrl || DEFAULT_LOGIN_URL)
  let instance: URL
  try {
    // Before anything connects: a refusal here means no socket was opened at all.
    instance = await checkSourceUrl(creds.instanceUrl, opts.allowPrivate, 'src_instance_url')
    if (creds.loginUrl) await checkSourceUrl(loginUrl, opts.allowPrivate, 'login URL')
  } catch (err) {
    throw classifySourceError(err)
  }
  const refreshToken = creds.refreshToken || undefined
  if (refreshToken && !opts.clientId) throw new Error('the source connection has a refresh token but no OAuth client id is configured to use it')

  const preferred = opts.apiVersion ?? PREFERRED_API_VERSION
  const { jsforce } = await guardedJsforce()
  const conn = new jsforce.Connection({
    instanceUrl: instance.origin,
    accessToken: creds.accessToken,
    refreshToken,
    // Only with a refresh token: without one jsforce must not try (and fail obscurely) to refresh.
    oauth2: refreshToken ? new jsforce.OAuth2({ clientId: opts.clientId, clientSecret: opts.clientSecret, loginUrl }) : undefined,
    version: preferred,
  })
  const sc = new SourceConnection(conn, {
    apiVersion: preferred, identity: { organizationId: null, userId: null, environment: null },
    canRefresh: !!refreshToken, retry: opts.retry, onTokenRefresh: opts.onTokenRefresh,
  })
  sc.apiVersion = await pickVersion(sc, preferred)
  conn.version = sc.apiVersion
  // The cheap call that proves the token (refreshing it when expired and possible).
  await sc.request('checking the source connection', sc.path('/limits'))
  sc.identity = await findIdentity(sc, loginUrl)
  return sc
}

/** The preferred version, or the newest the instance lists when that is lower (GET /services/data/, no auth). */
async function pickVersion(sc: SourceConnection, preferred: string): Promise<string> {
  let listed: Array<{ version: string }>
  try {
    listed = await sc.request<Array<{ version: string }>>('listing the API versions', '/services/data/')
  } catch (err) {
    // Only a platform refusal falls back to the preferred version; nothing answering is fatal.
    if (err instanceof SourceError && err.code === 'source_request_failed') return preferred
    throw err
  }
  const newest = Array.isArray(listed) ? Math.max(...listed.map((v) => Number(v.version)).filter(Number.isFinite)) : NaN
  if (!Number.isFinite(newest) || newest >= Number(preferred)) return preferred
  if (newest < MIN_API_VERSION) throw new Error(`the source platform's newest API version is ${newest.toFixed(1)}; migration needs ${MIN_API_VERSION}.0 or later`)
  return newest.toFixed(1)
}

/**
 * The org and user: OpenID userinfo on the instance (also says whether it is a sandbox); when the
 * token lacks the scope for it, the org id from the access token (`<15-char org id>!…`) and the
 * environment from the login host.
 */
async function findIdentity(sc: SourceConnection, loginUrl: string): Promise<SourceIdentity> {
  try {
    const info = await sc.request<{ organization_id?: string; user_id?: string; is_sandbox?: boolean }>('reading the source identity', '/services/oauth2/userinfo')
    if (info && typeof info.organization_id === 'string') {
      return {
        organizationId: info.organization_id,
        userId: typeof info.user_id === 'string' ? info.user_id : null,
        environment: typeof info.is_sandbox === 'boolean' ? (info.is_sandbox ? 'sandbox' : 'production') : environmentOfLoginUrl(loginUrl),
      }
    }
  } catch {
    // fall through to what the token and the login URL say
  }
  return { organizationId: orgIdOfToken(sc.conn.accessToken ?? ''), userId: null, environment: environmentOfLoginUrl(loginUrl) }
}

/** `test.salesforce.com`, `*.sandbox.my.salesforce.com` (and the simulator's `/sandbox`) are sandboxes. */
export function environmentOfLoginUrl(loginUrl: string): SourceEnvironment | null {
  let url: URL
  try {
    url = new URL(loginUrl)
  } catch {
    return null
  }
  if (url.hostname === 'test.salesforce.com' || url.hostname.endsWith('.sandbox.my.salesforce.com') || /\/sandbox\/?$/.test(url.pathname)) return 'sandbox'
  if (url.hostname === 'login.salesforce.com') return 'production'
  return null
}

/** The 18-character org id carried by a platform access token (`00D…!…`), or null. */
export function orgIdOfToken(token: string): string | null {
  const m = /^(00D[A-Za-z0-9]{12})(?:[A-Za-z0-9]{3})?!/.exec(token)
  return m ? to18(m[1]) : null
}

/** The case-safe 18-character form of a 15-character id (three checksum characters, one per 5). */
export function to18(id15: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345'
  let suffix = ''
  for (let block = 0; block < 3; block++) {
    let bits = 0
    for (let i = 0; i < 5; i++) {
      const c = id15[block * 5 + i]
      if (c >= 'A' && c <= 'Z') bits |= 1 << i
    }
    suffix += alphabet[bits]
  }
  return id15 + suffix
}
