/**
 * The OAuth 2.0 web server flow of the Connect step (spec: source-platform.md §1.1), through
 * jsforce's OAuth2: the authorization URL the browser is sent to (PKCE S256, RFC 7636 §4.2) and the
 * exchange of the returned code for tokens. The login URL passes the same address check as the
 * instance URL, and so does the instance_url the platform answers with (all later calls go there).
 */
import { createHash, randomBytes } from 'node:crypto'
import { classifySourceError, SourceRequestFailed } from './source-errors.ts'
import { checkSourceUrl, ensureSourceOutbound, guardedJsforce, sourceOutboundPolicy, trimSlash } from './source-outbound.ts'

/** What the Connect step asks for: API access and a refresh token for runs without the user. */
export const DEFAULT_SCOPE = 'api refresh_token'

export interface SourceTokens {
  instanceUrl: string
  accessToken: string
  refreshToken: string | null
  orgId: string | null
  userId: string | null
  scope: string | null
}

/** A PKCE pair: the verifier stays server-side with the state, the challenge goes in the URL (RFC 7636 §4.1-4.2, S256). */
export function createPkcePair(): { codeVerifier: string; codeChallenge: string } {
  const codeVerifier = randomBytes(48).toString('base64url')
  return { codeVerifier, codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url') }
}

/** The platform's authorize URL for this login host; the caller redirects the browser to it. */
export async function authorizationUrl(p: {
  loginUrl: string
  clientId: string
  redirectUri: string
  state: string
  codeChallenge: string
  /** Default: the process policy (configureSourceOutbound), else false. */
  allowPrivate?: boolean
  scope?: string
  /** e.g. `login consent` to force the account chooser. */
  prompt?: string
}): Promise<string> {
  const allowPrivate = p.allowPrivate ?? sourceOutboundPolicy()?.allowPrivate ?? false
  const loginUrl = trimSlash((await checkedUrl(p.loginUrl, allowPrivate, 'login URL')).href)
  const { jsforce } = await guardedJsforce()
  const oauth2 = new jsforce.OAuth2({ loginUrl, clientId: p.clientId, redirectUri: p.redirectUri })
  return oauth2.getAuthorizationUrl({
    scope: p.scope ?? DEFAULT_SCOPE,
    state: p.state,
    code_challenge: p.codeChallenge,
    code_challenge_method: 'S256',
    ...(p.prompt ? { prompt: p.prompt } : {}),
  })
}

/**
 * Exchanges the callback's code for tokens. Not retried: a code is single-use, and a retry after a
 * lost answer would only earn invalid_grant; the user presses Connect again instead.
 */
export async function exchangeCode(p: {
  loginUrl: string
  clientId: string
  clientSecret?: string
  redirectUri: string
  code: string
  codeVerifier: string
  allowPrivate: boolean
}): Promise<SourceTokens> {
  ensureSourceOutbound(p.allowPrivate)
  const loginUrl = trimSlash((await checkedUrl(p.loginUrl, p.allowPrivate, 'login URL')).href)
  const { jsforce } = await guardedJsforce()
  const oauth2 = new jsforce.OAuth2({ loginUrl, clientId: p.clientId, clientSecret: p.clientSecret, redirectUri: p.redirectUri })
  let res: Awaited<ReturnType<typeof oauth2.requestToken>>
  try {
    res = await oauth2.requestToken(p.code, { code_verifier: p.codeVerifier })
  } catch (err) {
    throw classifySourceError(err, { what: 'connecting to the source platform', secrets: [p.code, p.codeVerifier, p.clientSecret] })
  }
  if (!res || typeof res.access_token !== 'string' || typeof res.instance_url !== 'string') {
    throw new SourceRequestFailed('connecting to the source platform: the token response has no access_token or instance_url', 'INVALID_TOKEN_RESPONSE')
  }
  const instance = await checkedUrl(res.instance_url, p.allowPrivate, 'instance_url returned by the source platform')
  // The identity URL ends with /<org id>/<user id> (spec §1.1).
  const [orgId, userId] = typeof res.id === 'string' ? res.id.split('/').slice(-2) : []
  return {
    instanceUrl: instance.origin,
    accessToken: res.access_token,
    refreshToken: res.refresh_token ?? null,
    orgId: orgId || null,
    userId: userId || null,
    scope: typeof res.scope === 'string' ? res.scope : null,
  }
}

/** The URL check, refusals as SourceUnreachable like every other error of this client. */
async function checkedUrl(raw: string, allowPrivate: boolean, field: string): Promise<URL> {
  try {
    return await checkSourceUrl(raw, allowPrivate, field)
  } catch (err) {
    throw classifySourceError(err)
  }
}
