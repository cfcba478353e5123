/**
 * RFC 9457 problem details: the error family of the REST API, each class named after its stable
 * `code`. OAuth endpoints use their own RFC 6749 errors (oauth/oauth.errors.ts), not these.
 */

export interface FieldError {
  field: string
  message: string
  /** The failing item of a batch (its position in `records`). */
  index?: number
}

export class ProblemError extends Error {
  readonly status: number
  readonly code: string
  readonly title: string
  readonly errors?: FieldError[]
  readonly headers: Record<string, string>
  /** RFC 9457 extension members, sent beside the standard ones (e.g. `oldest_seq`). */
  extensions: Record<string, unknown> = {}
  constructor(status: number, code: string, title: string, detail: string, errors?: FieldError[], headers: Record<string, string> = {}) {
    super(detail)
    this.status = status
    this.code = code
    this.title = title
    this.errors = errors
    this.headers = headers
  }
}

export class ValidationFailed extends ProblemError {
  constructor(detail: string, errors?: FieldError[]) {
    super(400, 'validation_failed', 'Validation failed', detail, errors)
  }
}

export class InvalidLimit extends ProblemError {
  constructor() {
    super(400, 'invalid_limit', 'Invalid limit', 'limit must be an integer from 1 to 200.', [
      { field: 'limit', message: 'must be an integer from 1 to 200' },
    ])
  }
}

export class InvalidCursor extends ProblemError {
  constructor() {
    super(400, 'invalid_cursor', 'Invalid cursor', 'cursor must be the id (a UUID) of a record from a previous page.', [
      { field: 'cursor', message: 'must be a UUID' },
    ])
  }
}

export class NotFound extends ProblemError {
  constructor(what = 'Resource') {
    super(404, 'not_found', 'Not found', `${what} not found.`)
  }
}

export class Conflict extends ProblemError {
  constructor(detail: string) {
    super(409, 'conflict', 'Conflict', detail)
  }
}

export class Unauthenticated extends ProblemError {
  constructor(detail: string, headers: Record<string, string> = {}, code = 'unauthenticated') {
    super(401, code, 'Authentication required', detail, undefined, headers)
  }
}

export class Forbidden extends ProblemError {
  constructor(detail: string, code = 'forbidden', headers: Record<string, string> = {}) {
    super(403, code, 'Forbidden', detail, undefined, headers)
  }
}

/** The person is not an administrator of the organization (now): docs/members.md, Who may do what. */
export class AdminRequired extends Forbidden {
  constructor() {
    super('Only administrators of the organization can do this.', 'admin_required')
  }
}

export class PayloadTooLarge extends ProblemError {
  constructor(limit: number) {
    super(413, 'payload_too_large', 'Payload too large', `The request body exceeds the limit of ${limit} bytes.`)
  }
}

export class RateLimited extends ProblemError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Too many requests', `Try again in ${retryAfterSeconds} seconds.`, undefined, {
      'retry-after': String(retryAfterSeconds),
    })
  }
}

/**
 * A database refusal that a client's value caused, as the problem every surface answers with (REST's
 * error handler and the MCP tools alike), or null for anything else. PostgreSQL refuses text holding
 * NUL (invalid byte sequence, 22021; in JSON, 22P05): a search or filter for it, or a value with it,
 * is the client's mistake, and nothing was written.
 */
export function problemFromDatabaseRefusal(err: unknown): ProblemError | null {
  const code = (err as { code?: unknown } | null)?.code
  if (code === '22021' || code === '22P05') return new ValidationFailed('A value contains the NUL character (U+0000), which cannot be stored or searched.')
  return null
}
