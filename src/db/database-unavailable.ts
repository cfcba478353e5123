/**
 * The errors that mean "the database server is gone or is no longer the primary", as opposed to a
 * statement's own failure: the primary pool reconnects on them, a replica read retries on the
 * primary, and a request answers 503 with Retry-After (a retry after the failover succeeds).
 */

/** A request cannot reach a read-write primary right now; retrying in a few seconds can succeed. */
export class DatabaseUnavailable extends Error {
  readonly retryAfterSeconds: number
  constructor(detail: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(detail, { cause: options.cause })
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1
  }
}

/**
 * SQLSTATEs of a server going away or refusing writes: 57P01 admin_shutdown, 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up, or shutting down), 25006
 * read_only_sql_transaction (the host became a standby), and class 08 (connection exceptions).
 */
const LOST_STATES = new Set(['57P01', '57P02', '57P03', '25006'])
/** Socket errors node-postgres passes through when the server cannot be reached or dropped the connection. */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

export function isServerLost(err: unknown): boolean {
  if (err instanceof DatabaseUnavailable) return true
  const e = err as { code?: unknown; message?: unknown } | null
  const code = typeof e?.code === 'string' ? e.code : ''
  if (LOST_STATES.has(code) || code.startsWith('08') || SOCKET_ERRORS.has(code)) return true
  // node-postgres's own errors for a connection that ended or never opened carry no code.
  const message = typeof e?.message === 'string' ? e.message : ''
  return code === '' && /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed/i.test(message)
}
