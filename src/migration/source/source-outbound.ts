/**
 * The SSRF guard for every request the source-platform client (jsforce) sends. jsforce sends all
 * of its HTTP through undici with one process-wide dispatcher (`setDispatcher` in
 * jsforce/lib/request.js); we install an undici Agent whose `connect` resolves the host with the
 * shared address policy and connects to the address that was checked, so each new socket (to the
 * instance, the login host, an instance_url a token refresh hands back, a host DNS now points
 * elsewhere) passes the policy at connect time, not only when the URL was first typed in.
 *
 * It also owns jsforce's process-wide request defaults: no HTTP proxy (a proxy would connect on
 * our behalf and bypass the check), no redirects (jsforce copies every header, the Bearer token
 * included, to any Location), and no internal retries (with-retry.ts is the one bounded policy).
 *
 * jsforce is loaded on first use, through `guardedJsforce` only, which installs the guard before
 * it hands the library out: jsforce and the undici it brings cost a process about 40 MB of memory
 * (docs/benchmarks.md), which a process that never connects a source platform no longer pays.
 */
import { createRequire } from 'node:module'
import type * as Undici from 'undici'
import type JsforceDefault from 'jsforce'
import type { HttpApi as JsforceHttpApi } from 'jsforce/lib/http-api.js'
import { checkOutboundUrl, OutboundRefused, resolveChecked } from '../../shared/outbound/guarded-request.ts'

/** What the service uses of jsforce. */
export interface Jsforce {
  jsforce: typeof JsforceDefault
  HttpApi: typeof JsforceHttpApi
}

/** jsforce's process-wide request settings and the undici its fetch accepts dispatchers of. */
interface RequestWiring {
  setDefaults: typeof import('jsforce/lib/request.js').setDefaults
  setDispatcher: typeof import('jsforce/lib/request.js').setDispatcher
  undici: typeof Undici
}

/** Connect timeout per socket: a host that does not answer SYN is unreachable, not slow. */
const CONNECT_TIMEOUT_MS = 10_000
/** Longest wait for response headers (the platform itself gives up on a query after 120 s). */
const HEADERS_TIMEOUT_MS = 180_000
/** Longest silence while a body streams (Bulk result pages are large but keep flowing). */
const BODY_TIMEOUT_MS = 120_000

interface OutboundSettings {
  allowPrivate: boolean
  ca?: string | Buffer
}

/** The policy in force (configureSourceOutbound), applied to jsforce once it is loaded. */
let settings: OutboundSettings | null = null
let wiring: RequestWiring | null = null
let loading: Promise<Jsforce> | null = null
let agent: Undici.Agent | null = null

/** What a redirect of the source platform becomes: an error, never a request carrying the token elsewhere. */
export class SourceRedirectRefused extends Error {
  readonly location: string
  constructor(location: string) {
    let where = 'another address'
    try {
      where = new URL(location).origin
    } catch {
      // keep the generic wording for a Location that is not a URL
    }
    super(`the source platform answered with a redirect to ${where}; redirects are not followed (they would carry the access token)`)
    this.name = 'SourceRedirectRefused'
    this.location = location
  }
}

/**
 * Sets the process policy for source-platform traffic, installed into jsforce now if it is loaded
 * and otherwise when it is. The service calls it once at start with ALLOW_PRIVATE_OUTBOUND; calling
 * it again replaces the policy. `ca` (PEM) replaces the trusted roots for the platform's
 * certificates (a private CA; tests).
 */
export function configureSourceOutbound(opts: OutboundSettings): void {
  settings = { allowPrivate: opts.allowPrivate, ...(opts.ca ? { ca: opts.ca } : {}) }
  if (wiring) install(wiring, settings)
}

/** Installs the guard with this policy unless the service already configured one (fail closed). */
export function ensureSourceOutbound(allowPrivate: boolean): void {
  if (!settings) configureSourceOutbound({ allowPrivate })
}

/** The process policy in force, or null before configureSourceOutbound. */
export function sourceOutboundPolicy(): { allowPrivate: boolean } | null {
  return settings ? { allowPrivate: settings.allowPrivate } : null
}

/**
 * jsforce, with the guard installed before it is handed out (the policy configured, or private
 * addresses refused when none was). The only way the service reaches jsforce.
 */
export function guardedJsforce(): Promise<Jsforce> {
  loading ??= (async () => {
    const [{ default: jsforce }, { HttpApi }, { setDefaults, setDispatcher }] = await Promise.all([import('jsforce'), import('jsforce/lib/http-api.js'), import('jsforce/lib/request.js')])
    // The Agent must come from the undici jsforce itself loads: its fetch only accepts dispatchers
    // of its own version. Resolving from jsforce's location finds that copy wherever npm placed it.
    const requireFromJsforce = createRequire(createRequire(import.meta.url).resolve('jsforce'))
    wiring = { setDefaults, setDispatcher, undici: requireFromJsforce('undici') as typeof Undici }
    // Without a configured policy, private addresses are refused until one is configured.
    install(wiring, settings ?? { allowPrivate: false })
    return { jsforce, HttpApi }
  })()
  return loading
}

function install({ setDefaults, setDispatcher, undici }: RequestWiring, policy: OutboundSettings): void {
  const tcpConnect = undici.buildConnector({ timeout: CONNECT_TIMEOUT_MS, allowH2: false, ...(policy.ca ? { ca: policy.ca } : {}) })
  const connect: Undici.buildConnector.connector = (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '')
    resolveChecked(host, policy.allowPrivate).then(
      ({ address }) =>
        // Connect to the checked address; the original name stays the TLS servername (SNI and
        // certificate verification), so https keeps working exactly as before.
        tcpConnect({ ...options, hostname: address, servername: options.servername ?? (isIpLiteral(host) ? undefined : host) }, callback),
      (err: unknown) => callback(err instanceof Error ? err : new OutboundRefused(String(err)), null),
    )
  }
  const previous = agent
  agent = new undici.Agent({ connect, headersTimeout: HEADERS_TIMEOUT_MS, bodyTimeout: BODY_TIMEOUT_MS })
  setDispatcher(agent)
  // Requests in flight finish on the old pool; its idle sockets close.
  void previous?.close().catch(() => undefined)
  setDefaults({
    // jsforce's own default reads HTTP(S)_PROXY; a proxy would make the connection for us and
    // the address check above would see the proxy, not the platform.
    httpProxy: undefined,
    timeout: process.env.HTTP_TIMEOUT ? parseInt(process.env.HTTP_TIMEOUT, 10) : undefined,
    followRedirect: (location: string) => {
      throw new SourceRedirectRefused(location)
    },
    // jsforce retries GETs 5 times (0.5 s to 8 s) on 5xx and socket errors by default; with our
    // retry around each call that would multiply into minutes. One bounded policy: with-retry.ts.
    retry: { maxRetries: 0 },
  })
}

/**
 * Checks a source URL before anything connects to it: absolute http(s) (plain http only when
 * private addresses are allowed, i.e. local development and tests), no user name or password,
 * no fragment, and a host resolving to allowed addresses only. `field` names the setting in the
 * message ("src_instance_url resolves to a private or reserved address (127.0.0.1)").
 */
export async function checkSourceUrl(raw: string, allowPrivate: boolean, field = 'src_instance_url'): Promise<URL> {
  let url: URL
  try {
    url = checkOutboundUrl(raw, { allowHttp: allowPrivate })
  } catch (err) {
    throw new OutboundRefused(`${field} ${(err as Error).message}`)
  }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  try {
    await resolveChecked(host, allowPrivate)
  } catch (err) {
    const message = (err as Error).message
    // resolveChecked words it "<host> resolves to ..."; the administrator knows the setting's name.
    throw new OutboundRefused(message.startsWith(`${host} `) ? `${field}${message.slice(host.length)}` : `${field}: ${message}`)
  }
  return url
}

/** A URL without trailing slashes (login URLs are joined with paths by jsforce). */
export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '')
}

function isIpLiteral(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':')
}
