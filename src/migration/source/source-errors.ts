/**
 * The errors of the source-platform client, as a small family the importer can act on, and the one
 * function that turns whatever jsforce, undici or the SSRF guard threw into one of them:
 *
 * - SourceQuotaExceeded  403 REQUEST_LIMIT_EXCEEDED: the org's daily API allowance is spent; the run pauses.
 * - SourceAuthFailed     INVALID_SESSION_ID a refresh could not fix, an OAuth error (invalid_grant, ...),
 *                        no refresh token: the run fails with "reconnect the source".
 * - SourceUnreachable    refused by the SSRF guard, DNS failure, or no connection after the retries.
 * - SourceTransient      500/502/503/504, QUERY_TIMEOUT, reset or dropped connections: retried (with-retry.ts).
 * - SourceRequestFailed  anything else, with the platform's errorCode and message (INVALID_FIELD, ...).
 *
 * Messages are for an administrator and never contain a token: platform texts pass through
 * `redactSecrets` (spec: source-platform.md §1.9 error bodies, §2.2 what jsforce throws).
 */
import { OutboundRefused } from '../../shared/outbound/guarded-request.ts'
import { SourceRedirectRefused } from './source-outbound.ts'

export abstract class SourceError extends Error {
  /** Stable snake_case code for the importer, the API and the UI. */
  abstract readonly code: string
  /** The platform's errorCode (REQUEST_LIMIT_EXCEEDED, INVALID_FIELD, invalid_grant) or the socket error code, when known. */
  readonly errorCode: string | null
  constructor(message: string, errorCode: string | null = null, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause })
    this.errorCode = errorCode
  }
}

/** 403 REQUEST_LIMIT_EXCEEDED: never retried, the run pauses until the allowance recovers. */
export class SourceQuotaExceeded extends SourceError {
  readonly code = 'source_quota_exceeded'
  override readonly name = 'SourceQuotaExceeded'
}

/** The credentials no longer work and cannot be renewed here: the user must reconnect the source. */
export class SourceAuthFailed extends SourceError {
  readonly code = 'source_auth_failed'
  override readonly name = 'SourceAuthFailed'
}

/** Nothing answered: refused by the address policy, unknown host, or no connection after the retries. */
export class SourceUnreachable extends SourceError {
  readonly code = 'source_unreachable'
  override readonly name = 'SourceUnreachable'
}

/** Worth another try: server busy, query timeout, connection reset or dropped. */
export class SourceTransient extends SourceError {
  readonly code = 'source_transient'
  override readonly name = 'SourceTransient'
  /** No HTTP response at all (refused, reset, dropped): after the last attempt it becomes SourceUnreachable. */
  readonly network: boolean
  constructor(message: string, errorCode: string | null, network: boolean, cause?: unknown) {
    super(message, errorCode, cause)
    this.network = network
  }
}

/** The platform refused this request for a reason retrying will not change (INVALID_FIELD, MALFORMED_QUERY, ...). */
export class SourceRequestFailed extends SourceError {
  readonly code = 'source_request_failed'
  override readonly name = 'SourceRequestFailed'
}

const QUOTA_CODES = new Set(['REQUEST_LIMIT_EXCEEDED'])
const SESSION_CODES = new Set(['INVALID_SESSION_ID', 'INVALID_AUTH_HEADER', 'ERROR_HTTP_401'])
/** OAuth `error` values (RFC 6749 §5.2 plus the platform's own). */
const OAUTH_CODES = new Set([
  'invalid_grant', 'invalid_client', 'invalid_client_id', 'invalid_client_credentials', 'invalid_request', 'unauthorized_client',
  'unsupported_grant_type', 'redirect_uri_mismatch', 'invalid_scope', 'inactive_user', 'inactive_org', 'access_denied',
])
const TRANSIENT_CODES = new Set([
  'SERVER_UNAVAILABLE', 'UNKNOWN_EXCEPTION', 'QUERY_TIMEOUT', 'REQUEST_RUNNING_TOO_LONG',
  'ERROR_HTTP_420', 'ERROR_HTTP_429', 'ERROR_HTTP_500', 'ERROR_HTTP_502', 'ERROR_HTTP_503', 'ERROR_HTTP_504',
])
/** Socket-level codes worth another attempt (undici and Node). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN',
  'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT',
])
/** Node's TLS errors and OpenSSL's certificate verification codes. */
const TLS_CODE = /^ERR_(TLS|SSL)_|CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY|DECRYPT)|^HOSTNAME_MISMATCH$/
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused', ECONNRESET: 'connection reset', UND_ERR_SOCKET: 'connection closed without a response',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out', UND_ERR_HEADERS_TIMEOUT: 'no response in time', UND_ERR_BODY_TIMEOUT: 'response stalled',
  ETIMEDOUT: 'connection timed out', EPIPE: 'connection broken', EHOSTUNREACH: 'host unreachable', ENETUNREACH: 'network unreachable',
}

/** Platform access tokens (`00D…!…`), refresh tokens (`5Aep…`), Bearer headers and token parameters. */
const TOKEN_PATTERNS: Array<[RegExp, string]> = [
  [/\b00D[A-Za-z0-9]{12,15}![A-Za-z0-9._-]+/g, '[redacted]'],
  [/\b5Aep[A-Za-z0-9._-]{16,}/g, '[redacted]'],
  [/\b(Bearer|OAuth)\s+[A-Za-z0-9._!-]{16,}/gi, '$1 [redacted]'],
  [/\b(oauth_token|access_token|refresh_token|code_verifier|client_secret)=[^&\s]+/gi, '$1=[redacted]'],
]

/** Removes the given secrets and anything shaped like a platform token from a text. */
export function redactSecrets(text: string, secrets: Array<string | null | undefined> = []): string {
  let out = text
  for (const s of secrets) if (s && s.length >= 8) out = out.split(s).join('[redacted]')
  for (const [pattern, replacement] of TOKEN_PATTERNS) out = out.replace(pattern, replacement)
  return out
}

export interface ClassifyContext {
  /** What was being done, for the message: "reading Contact records". */
  what?: string
  /** Tokens of the connection, never to appear in a message. */
  secrets?: Array<string | null | undefined>
  /** Whether a refresh token was available (changes the advice of an INVALID_SESSION_ID). */
  canRefresh?: boolean
}

/** Turns anything a platform call threw into a SourceError (a SourceError passes through unchanged). */
export function classifySourceError(err: unknown, ctx: ClassifyContext = {}): SourceError {
  if (err instanceof SourceError) return err
  const say = (text: string) => redactSecrets(ctx.what ? `${ctx.what}: ${text}` : text, ctx.secrets)
  const e = (err instanceof Error ? err : new Error(String(err))) as Error & { errorCode?: unknown; code?: unknown }
  const errorCode = typeof e.errorCode === 'string' ? e.errorCode : null
  const platformText = (code: string) => `${code}: ${firstLine(e.message) || 'no details'}`

  const refused = findCause(e, (c) => c instanceof OutboundRefused) as OutboundRefused | undefined
  // The guard's own words name the setting and the address ("src_instance_url resolves to a private or reserved address (127.0.0.1)").
  if (refused) return new SourceUnreachable(say(refused.message), 'OUTBOUND_REFUSED', err)
  const redirect = findCause(e, (c) => c instanceof SourceRedirectRefused) as SourceRedirectRefused | undefined
  if (redirect) return new SourceRequestFailed(say(redirect.message), 'REDIRECT', err)

  // The same code also reports the concurrent long-request limit, which clears in seconds.
  if (errorCode === 'REQUEST_LIMIT_EXCEEDED' && /Concurrent/i.test(e.message)) {
    return new SourceTransient(say(`the source org has too many long requests running (${platformText(errorCode)})`), errorCode, false, err)
  }
  // Bulk API 2.0 has its own daily caps ("Max bulk v2 query jobs (10000) per 24 hrs", spec §1.9).
  if ((errorCode && QUOTA_CODES.has(errorCode)) || (errorCode === 'LIMIT_EXCEEDED' && /24 ?h|per day|daily/i.test(e.message))) {
    return new SourceQuotaExceeded(say(`the source org's daily API allowance is used up (${platformText(errorCode)}); the migration can continue when it recovers`), errorCode, err)
  }
  if (errorCode && SESSION_CODES.has(errorCode)) {
    const why = ctx.canRefresh === false ? 'and there is no refresh token to renew it' : 'and it could not be renewed'
    return new SourceAuthFailed(say(`the source platform rejected the access token (${platformText(errorCode)}) ${why}: reconnect the source`), errorCode, err)
  }
  // jsforce's refresh delegate rewraps the OAuth error: "Unable to refresh session due to: <description>".
  const refresh = /^Unable to refresh session due to: (.*)$/s.exec(e.message)
  if (refresh) return new SourceAuthFailed(say(`the source platform refused to renew the access token (${firstLine(refresh[1])}): reconnect the source`), 'invalid_grant', err)
  if (OAUTH_CODES.has(e.name)) return new SourceAuthFailed(say(`the source platform refused the sign-in (${e.name}: ${firstLine(e.message) || 'no details'}): reconnect the source`), e.name, err)
  if (errorCode === 'ERROR_HTTP_403' && /Bad_OAuth_Token/.test(e.message)) return new SourceAuthFailed(say('the source platform rejected the access token (Bad_OAuth_Token): reconnect the source'), 'Bad_OAuth_Token', err)

  if (errorCode && TRANSIENT_CODES.has(errorCode)) return new SourceTransient(say(`the source platform is busy or timed out (${platformText(errorCode)})`), errorCode, false, err)

  // A certificate that does not verify will not verify on the next attempt either.
  const tls = findCause(e, (c) => typeof (c as { code?: unknown } | null)?.code === 'string' && TLS_CODE.test((c as { code: string }).code)) as (Error & { code: string }) | undefined
  if (tls) return new SourceUnreachable(say(`the source platform's TLS certificate was refused (${tls.code}: ${firstLine(tls.message)})`), tls.code, err)

  const net = networkCode(e)
  if (net) return new SourceTransient(say(`could not talk to the source platform (${NETWORK_WORDS[net] ?? net})`), net, true, err)
  if (e.name === 'AbortError' || e.message === 'Request Timeout' || /aborted due to timeout/.test(e.message)) {
    return new SourceTransient(say('the source platform did not answer in time'), 'TIMEOUT', true, err)
  }
  if (e instanceof TypeError && (e.message === 'fetch failed' || e.message === 'terminated')) {
    return new SourceTransient(say('the connection to the source platform failed'), 'FETCH_FAILED', true, err)
  }

  const code = errorCode ?? (typeof e.code === 'string' ? e.code : null)
  return new SourceRequestFailed(say(code ? platformText(code) : firstLine(e.message) || 'unknown error'), code, err)
}

function firstLine(text: string): string {
  return (text ?? '').split('\n')[0].trim().slice(0, 500)
}

function findCause(err: unknown, test: (e: unknown) => boolean): unknown {
  let cur: unknown = err
  for (let depth = 0; cur && depth < 6; depth++) {
    if (test(cur)) return cur
    if (cur instanceof AggregateError) {
      const hit = cur.errors.find((x) => test(x))
      if (hit) return hit
    }
    cur = (cur as { cause?: unknown }).cause
  }
  return undefined
}

function networkCode(err: unknown): string | null {
  const hit = findCause(err, (c) => {
    const code = (c as { code?: unknown } | null)?.code
    return typeof code === 'string' && NETWORK_CODES.has(code)
  }) as { code: string } | undefined
  return hit ? hit.code : null
}
