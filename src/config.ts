/**
 * The one validated configuration module: every setting the service reads from the environment,
 * with its default. The README's "Configuration" table lists the same names.
 */
import path from 'node:path'

export interface Config {
  port: number
  host: string
  publicUrl: string
  /** The primary: one host, or several in libpq's multi-host form (the pool uses the read-write one). */
  databaseUrl: string | null
  /** Streaming replicas that serve reads (lists, counts, search, export, feed, MCP reads); empty: none. */
  databaseReadUrls: string[]
  /** A replica lagging longer than this leaves the read rotation until it catches up. */
  readReplicaMaxLagSeconds: number
  /** How often each replica's replay position and lag are checked. */
  readReplicaCheckIntervalMs: number
  dataDir: string
  allowPrivateOutbound: boolean
  logLevel: string
  trustProxy: boolean
  bodyLimitBytes: number
  sessionTtlSeconds: number
  /** RFC 7591 dynamic client registration at /api/oauth/register. */
  oauthDynamicRegistration: boolean
  /** Client ID Metadata Documents (https client_id URLs). */
  oauthMetadataDocuments: boolean
  /** Token endpoint requests per minute, per client and per address (429 past them). */
  tokenRatePerClient: number
  tokenRatePerAddress: number
  /** Rate limits of /api/v1 and /mcp (docs/api.md, Rate limits); off: no limit and no RateLimit fields. */
  rateLimitEnabled: boolean
  /** Requests per window per organization, and per API client (or the web app) within an organization. */
  rateLimitPerOrg: number
  rateLimitPerClient: number
  rateLimitWindowSeconds: number
  /** Which work this process does: HTTP and background work (`all`), only HTTP (`web`), only background work (`worker`). */
  role: 'all' | 'web' | 'worker'
  /** 32-byte key sealing stored secrets (webhook signing secrets); null: a key the service keeps in its database. */
  encryptionKey: Buffer | null
  /** Plain-http webhook URLs; https only unless set (defaults to ALLOW_PRIVATE_OUTBOUND). */
  webhookAllowHttp: boolean
  /** Deliveries one process sends at the same time. */
  webhookConcurrency: number
  /** Days the event journal keeps an event (GET /api/v1/events, record histories). */
  eventRetentionDays: number
  /** Days record history and operations are kept (GET /{kind}/{id}/history, /operations, revert): longer than the feed. */
  historyRetentionDays: number
  /** Browser origins, besides PUBLIC_URL's own, allowed to call /mcp (requests without Origin always are). */
  mcpAllowedOrigins: string[]
  /** The service's OAuth client at the source platform (Migration -> Connect); null: connecting by OAuth is off. */
  sourceClientId: string | null
  sourceClientSecret: string | null
  /** Login hosts of the source platform's production and sandbox orgs. */
  sourceLoginUrl: string
  sourceSandboxLoginUrl: string
  /** REST API version the importer asks the source platform for. */
  sourceApiVersion: string
  /** Migrations (analyses and imports) one process works on at the same time. */
  migrationConcurrency: number
  /** How long a process's claim on a migration lasts without renewal (a crashed process's work resumes after it). */
  migrationLeaseSeconds: number
  /** How often a paused migration (source API allowance exhausted) checks the allowance again. */
  migrationAllowanceRecheckSeconds: number
  /** The SMTP server that sends invitation emails (smtp:// or smtps://, credentials in the URL); null: the app shows the link to copy. */
  smtpUrl: string | null
  /** The From of those emails. */
  smtpFrom: string
  /** Largest CSV file `POST /api/v1/imports` accepts (larger: 413 payload_too_large). */
  importMaxFileBytes: number
  /** CSV imports one process runs at the same time. */
  importConcurrency: number
  /** How long a process's claim on a CSV import lasts without renewal (a crashed process's import resumes after it). */
  importLeaseSeconds: number
  /** How long a claimed Idempotency-Key stays busy when its process died mid-request (docs/api.md, Idempotent retries). */
  idempotencyLeaseSeconds: number
  /** Faults a crash test asks the process to commit (TEST_FAULTS); empty in every real deployment. */
  testFaults: ReadonlySet<TestFault>
  /** Long-lived responses (docs/api.md, Long-lived responses): caps, the stall limit and the access re-check. */
  streams: StreamLimits
}

/**
 * Failure points for crash tests: `crash-before-answer` kills the process (SIGKILL) after a keyed
 * write committed and before its answer is stored, the window an idempotent retry must survive.
 */
export const TEST_FAULTS = ['crash-before-answer'] as const
export type TestFault = (typeof TEST_FAULTS)[number]

function parseTestFaults(raw: string | undefined): ReadonlySet<TestFault> {
  const names = (raw ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '')
  const unknown = names.filter((n) => !(TEST_FAULTS as readonly string[]).includes(n))
  if (unknown.length > 0) throw new ConfigError(`TEST_FAULTS may name only ${TEST_FAULTS.join(', ')}; got "${unknown.join(', ')}"`)
  return new Set(names as TestFault[])
}

export interface StreamLimits {
  /** Open at once per organization, across every process (then 429 too_many_streams). */
  perOrg: number
  /** Open at once per API client (or per person in the web app) within an organization. */
  perClient: number
  /** Open at once in this process (then 503): what bounds one process's memory. */
  perProcess: number
  /** A reader that takes nothing for this long is disconnected. */
  stallSeconds: number
  /** How often an open response checks that its credential still grants access. */
  recheckSeconds: number
}

export class ConfigError extends Error {}

function parsePort(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${name} must be a port number 0-65535, got "${raw}"`)
  return n
}

function parseBool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback
  if (/^(1|true|yes)$/i.test(raw)) return true
  if (/^(0|false|no)$/i.test(raw)) return false
  throw new ConfigError(`${name} must be true or false, got "${raw}"`)
}

function parsePositiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer, got "${raw}"`)
  return n
}

function parsePublicUrl(raw: string | undefined, port: number): string {
  const value = raw && raw !== '' ? raw : `http://localhost:${port}`
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, got "${value}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('PUBLIC_URL must use http or https')
  if (url.search || url.hash || url.username) throw new ConfigError('PUBLIC_URL must not carry a query, fragment or userinfo')
  // The issuer is compared byte for byte by OAuth clients: keep one canonical form, no trailing slash.
  return url.href.replace(/\/$/, '')
}

function parseDatabaseUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError('DATABASE_URL must be a postgres:// URL')
  return raw
}

function parseReadUrls(raw: string | undefined, databaseUrl: string | null): string[] {
  if (raw === undefined || raw.trim() === '') return []
  if (databaseUrl === null) throw new ConfigError('DATABASE_READ_URLS needs DATABASE_URL: the embedded database has no replicas')
  return raw.split(',').map((item) => {
    const value = item.trim()
    if (!/^postgres(ql)?:\/\/[^,]+$/.test(value)) throw new ConfigError(`DATABASE_READ_URLS must list postgres:// URLs separated by commas, got "${value}"`)
    return value
  })
}

function parseRole(raw: string | undefined): Config['role'] {
  if (raw === undefined || raw === '') return 'all'
  if (raw === 'all' || raw === 'web' || raw === 'worker') return raw
  throw new ConfigError(`SERVICE_ROLE must be all, web or worker, got "${raw}"`)
}

function parseEncryptionKey(raw: string | undefined): Buffer | null {
  if (raw === undefined || raw === '') return null
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64')
  if (key.length !== 32) throw new ConfigError('ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64 (openssl rand -base64 32)')
  return key
}

function parseHttpUrl(name: string, raw: string | undefined, fallback: string): string {
  const value = raw && raw !== '' ? raw : fallback
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${value}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must use http or https`)
  return url.href.replace(/\/$/, '')
}

function parseOrigins(name: string, raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return []
  return raw.split(',').map((item) => {
    const value = item.trim()
    let url: URL
    try {
      url = new URL(value)
    } catch {
      throw new ConfigError(`${name} must list origins like https://app.example.com, got "${value}"`)
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value.replace(/\/$/, '')) {
      throw new ConfigError(`${name} must list bare http(s) origins (scheme, host, optional port), got "${value}"`)
    }
    return url.origin
  })
}

function parseApiVersion(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '62.0'
  if (!/^\d{2}\.0$/.test(raw)) throw new ConfigError(`SOURCE_API_VERSION must look like 62.0, got "${raw}"`)
  return raw
}

function parseSmtpUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('SMTP_URL must be a URL like smtp://user:password@mail.example.com:587')
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError('SMTP_URL must use smtp:// (STARTTLS when offered) or smtps:// (TLS from the start)')
  if (url.hostname === '') throw new ConfigError('SMTP_URL must name a host')
  return raw
}

function parseSmtpFrom(raw: string | undefined, publicUrl: string): string {
  if (raw === undefined || raw.trim() === '') return `Cairn <no-reply@${new URL(publicUrl).hostname}>`
  // Either a bare address or "Name <address>"; nothing that could smuggle another header line.
  if (/[\r\n]/.test(raw) || !/^([^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(raw.trim())) {
    throw new ConfigError(`SMTP_FROM must be an address or "Name <address>", got "${raw}"`)
  }
  return raw.trim()
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort('PORT', env.PORT, 3000)
  const allowPrivateOutbound = parseBool('ALLOW_PRIVATE_OUTBOUND', env.ALLOW_PRIVATE_OUTBOUND, false)
  const publicUrl = parsePublicUrl(env.PUBLIC_URL, port)
  const databaseUrl = parseDatabaseUrl(env.DATABASE_URL)
  return {
    port,
    host: env.HOST && env.HOST !== '' ? env.HOST : '0.0.0.0',
    publicUrl,
    databaseUrl,
    databaseReadUrls: parseReadUrls(env.DATABASE_READ_URLS, databaseUrl),
    readReplicaMaxLagSeconds: parsePositiveInt('READ_REPLICA_MAX_LAG_SECONDS', env.READ_REPLICA_MAX_LAG_SECONDS, 10),
    readReplicaCheckIntervalMs: parsePositiveInt('READ_REPLICA_CHECK_INTERVAL_MS', env.READ_REPLICA_CHECK_INTERVAL_MS, 1000),
    dataDir: path.resolve(env.DATA_DIR && env.DATA_DIR !== '' ? env.DATA_DIR : './data'),
    allowPrivateOutbound,
    logLevel: env.LOG_LEVEL && env.LOG_LEVEL !== '' ? env.LOG_LEVEL : 'info',
    trustProxy: parseBool('TRUST_PROXY', env.TRUST_PROXY, false),
    bodyLimitBytes: parsePositiveInt('BODY_LIMIT_BYTES', env.BODY_LIMIT_BYTES, 1024 * 1024),
    sessionTtlSeconds: parsePositiveInt('SESSION_TTL_SECONDS', env.SESSION_TTL_SECONDS, 7 * 24 * 3600),
    oauthDynamicRegistration: parseBool('OAUTH_DYNAMIC_REGISTRATION', env.OAUTH_DYNAMIC_REGISTRATION, true),
    oauthMetadataDocuments: parseBool('OAUTH_METADATA_DOCUMENTS', env.OAUTH_METADATA_DOCUMENTS, true),
    tokenRatePerClient: parsePositiveInt('OAUTH_TOKEN_RATE_PER_CLIENT', env.OAUTH_TOKEN_RATE_PER_CLIENT, 120),
    tokenRatePerAddress: parsePositiveInt('OAUTH_TOKEN_RATE_PER_ADDRESS', env.OAUTH_TOKEN_RATE_PER_ADDRESS, 300),
    rateLimitEnabled: parseBool('RATE_LIMIT_ENABLED', env.RATE_LIMIT_ENABLED, true),
    rateLimitPerOrg: parsePositiveInt('RATE_LIMIT_PER_ORG', env.RATE_LIMIT_PER_ORG, 6000),
    rateLimitPerClient: parsePositiveInt('RATE_LIMIT_PER_CLIENT', env.RATE_LIMIT_PER_CLIENT, 3000),
    rateLimitWindowSeconds: parsePositiveInt('RATE_LIMIT_WINDOW_SECONDS', env.RATE_LIMIT_WINDOW_SECONDS, 60),
    role: parseRole(env.SERVICE_ROLE),
    encryptionKey: parseEncryptionKey(env.ENCRYPTION_KEY),
    webhookAllowHttp: parseBool('WEBHOOK_ALLOW_HTTP', env.WEBHOOK_ALLOW_HTTP, allowPrivateOutbound),
    webhookConcurrency: parsePositiveInt('WEBHOOK_CONCURRENCY', env.WEBHOOK_CONCURRENCY, 64),
    eventRetentionDays: parsePositiveInt('EVENT_RETENTION_DAYS', env.EVENT_RETENTION_DAYS, 30),
    historyRetentionDays: parsePositiveInt('HISTORY_RETENTION_DAYS', env.HISTORY_RETENTION_DAYS, 400),
    mcpAllowedOrigins: parseOrigins('MCP_ALLOWED_ORIGINS', env.MCP_ALLOWED_ORIGINS),
    sourceClientId: env.SOURCE_CLIENT_ID && env.SOURCE_CLIENT_ID !== '' ? env.SOURCE_CLIENT_ID : null,
    sourceClientSecret: env.SOURCE_CLIENT_SECRET && env.SOURCE_CLIENT_SECRET !== '' ? env.SOURCE_CLIENT_SECRET : null,
    sourceLoginUrl: parseHttpUrl('SOURCE_LOGIN_URL', env.SOURCE_LOGIN_URL, 'https://login.salesforce.com'),
    sourceSandboxLoginUrl: parseHttpUrl('SOURCE_SANDBOX_LOGIN_URL', env.SOURCE_SANDBOX_LOGIN_URL, 'https://test.salesforce.com'),
    sourceApiVersion: parseApiVersion(env.SOURCE_API_VERSION),
    migrationConcurrency: parsePositiveInt('MIGRATION_CONCURRENCY', env.MIGRATION_CONCURRENCY, 2),
    migrationLeaseSeconds: parsePositiveInt('MIGRATION_LEASE_SECONDS', env.MIGRATION_LEASE_SECONDS, 30),
    migrationAllowanceRecheckSeconds: parsePositiveInt('MIGRATION_ALLOWANCE_RECHECK_SECONDS', env.MIGRATION_ALLOWANCE_RECHECK_SECONDS, 300),
    smtpUrl: parseSmtpUrl(env.SMTP_URL),
    smtpFrom: parseSmtpFrom(env.SMTP_FROM, publicUrl),
    importMaxFileBytes: parsePositiveInt('IMPORT_MAX_FILE_BYTES', env.IMPORT_MAX_FILE_BYTES, 100 * 1024 * 1024),
    importConcurrency: parsePositiveInt('IMPORT_CONCURRENCY', env.IMPORT_CONCURRENCY, 1),
    importLeaseSeconds: parsePositiveInt('IMPORT_LEASE_SECONDS', env.IMPORT_LEASE_SECONDS, 30),
    idempotencyLeaseSeconds: parsePositiveInt('IDEMPOTENCY_LEASE_SECONDS', env.IDEMPOTENCY_LEASE_SECONDS, 60),
    testFaults: parseTestFaults(env.TEST_FAULTS),
    streams: {
      perOrg: parsePositiveInt('STREAMS_PER_ORG', env.STREAMS_PER_ORG, 20),
      perClient: parsePositiveInt('STREAMS_PER_CLIENT', env.STREAMS_PER_CLIENT, 5),
      perProcess: parsePositiveInt('STREAMS_PER_PROCESS', env.STREAMS_PER_PROCESS, 1000),
      stallSeconds: parsePositiveInt('STREAM_STALL_SECONDS', env.STREAM_STALL_SECONDS, 30),
      recheckSeconds: parsePositiveInt('STREAM_RECHECK_SECONDS', env.STREAM_RECHECK_SECONDS, 2),
    },
  }
}
