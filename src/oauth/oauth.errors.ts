/**
 * OAuth errors (RFC 6749 §4.1.2.1, §5.2), each class named after its wire code. `allowRedirect`
 * says whether the error may be sent to the client's redirect URI: never before the client and
 * the redirect URI are verified (RFC 6749 §4.1.2.1; OAuth 2.1 §4.1.2.1).
 */
export class OAuthError extends Error {
  readonly error: string
  readonly status: number
  readonly allowRedirect: boolean
  readonly headers: Record<string, string>
  constructor(error: string, description: string, status = 400, options: { allowRedirect?: boolean; headers?: Record<string, string> } = {}) {
    super(description)
    this.error = error
    this.status = status
    this.allowRedirect = options.allowRedirect ?? true
    this.headers = options.headers ?? {}
  }
  toJSON() {
    return { error: this.error, error_description: this.message }
  }
}

export class InvalidRequest extends OAuthError {
  constructor(description: string, options?: { allowRedirect?: boolean }) {
    super('invalid_request', description, 400, options)
  }
}
/** Unknown client or redirect URI: shown as a page, never redirected. */
export class InvalidClientRequest extends OAuthError {
  constructor(description: string) {
    super('invalid_request', description, 400, { allowRedirect: false })
  }
}
export class InvalidClient extends OAuthError {
  constructor(description: string, usedBasic: boolean) {
    // RFC 6749 §5.2: 401, with a WWW-Authenticate matching the scheme the client used.
    super('invalid_client', description, 401, { headers: usedBasic ? { 'www-authenticate': 'Basic realm="cairn", charset="UTF-8"' } : {} })
  }
}
export class InvalidGrant extends OAuthError {
  constructor(description: string) {
    super('invalid_grant', description)
  }
}
export class UnauthorizedClient extends OAuthError {
  constructor(description: string) {
    super('unauthorized_client', description)
  }
}
export class UnsupportedGrantType extends OAuthError {
  constructor(description: string) {
    super('unsupported_grant_type', description)
  }
}
export class UnsupportedResponseType extends OAuthError {
  constructor(description: string) {
    super('unsupported_response_type', description)
  }
}
export class InvalidScope extends OAuthError {
  constructor(description: string) {
    super('invalid_scope', description)
  }
}
/** RFC 8707 §2: a resource the server does not serve. */
export class InvalidTarget extends OAuthError {
  constructor(description: string) {
    super('invalid_target', description)
  }
}
export class AccessDenied extends OAuthError {
  constructor(description: string) {
    super('access_denied', description)
  }
}
export class SlowDown extends OAuthError {
  constructor(retryAfter: number) {
    // RFC 6585 §4: 429 Too Many Requests with Retry-After.
    super('slow_down', `Too many requests; retry in ${retryAfter} seconds.`, 429, { headers: { 'retry-after': String(retryAfter) } })
  }
}
export class InvalidClientMetadata extends OAuthError {
  constructor(description: string) {
    super('invalid_client_metadata', description)
  }
}
export class InvalidRedirectUri extends OAuthError {
  constructor(description: string) {
    super('invalid_redirect_uri', description)
  }
}
