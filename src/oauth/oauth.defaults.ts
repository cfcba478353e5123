/**
 * Every lifetime, prefix and limit of the authorization server, in one place (no literal TTL
 * elsewhere). Each one names the rule it follows.
 */

/** Access tokens live one hour (service-spec.md, Access token). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600
/** Codes: 60 s, single use (docs/decisions.md; OAuth 2.1 §4.1.2 recommends at most 10 minutes). */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60
/** Refresh tokens expire when unused this long; each use rotates them (RFC 9700 §4.14.2). */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600

/**
 * Settings -> API's "Last used" is kept to the minute: a client's use is written at most once a
 * minute per process and per row (oauth/client-use.ts), so the list route's hot path, which
 * benchmarks measure, gains no write per request.
 */
export const CLIENT_USE_PRECISION_SECONDS = 60
/** Clients whose last write this process remembers; past it the memory is cleared (a cache: the cost is one write each). */
export const CLIENT_USE_REMEMBERED = 10_000

/** Prefixes make leaked secrets recognisable to secret scanners (docs/decisions.md). */
export const CLIENT_ID_PREFIX = 'crm_'
export const CLIENT_SECRET_PREFIX = 'crm_cs_'
export const ACCESS_TOKEN_PREFIX = 'crm_at_'
export const REFRESH_TOKEN_PREFIX = 'crm_rt_'
/** 32 random bytes = 256 bits, in base64url (unreserved characters, RFC 3986 §2.3). */
export const SECRET_BYTES = 32

export const SUPPORTED_SCOPES = ['crm:read', 'crm:write', 'erp:read'] as const
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'crm:read': 'Read your CRM records: accounts, contacts, cases, leads, opportunities, activities, webhooks and migrations',
  'crm:write': 'Create, change and delete CRM records, run special actions, manage webhooks and migrations',
  'erp:read': 'Read the product catalog and opportunity amounts',
}

/**
 * Failed client authentications tolerated per client and per address in 5 minutes (OAuth 2.1
 * §2.4.1: brute-force protection). Request rates per minute are settings (config.ts).
 */
export const CLIENT_AUTH_FAILURES_PER_5_MINUTES = 10
export const REGISTRATIONS_PER_HOUR_PER_ADDRESS = 30

/** Bounds on what a request may carry, so oversize input fails early and clearly. */
export const MAX_PARAM_LENGTH = 2048
export const MAX_STATE_LENGTH = 2048
export const MAX_REDIRECT_URIS = 10
export const MAX_CLIENT_NAME = 200
