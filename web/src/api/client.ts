// The one fetch wrapper of the web app: JSON in and out, the CSRF header on changes, RFC 9457
// problems turned into ApiError, and a 401 sending the browser back to sign-in.

export interface FieldError {
  field: string
  message: string
}

export interface Problem {
  type?: string
  title?: string
  status: number
  detail?: string
  code?: string
  errors?: FieldError[]
}

export class ApiError extends Error {
  readonly status: number
  readonly code: string | undefined
  readonly fieldErrors: FieldError[]
  constructor(problem: Problem) {
    super(problem.detail || problem.title || `Request failed (${problem.status})`)
    this.status = problem.status
    this.code = problem.code
    this.fieldErrors = problem.errors ?? []
  }
}

export interface Page<T> {
  data: T[]
  next_cursor: string | null
  has_more: boolean
}

let csrfToken: string | null = null

/** Remembered from GET /me; sent as x-csrf-token with every change. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token
}

async function ensureCsrfToken(): Promise<string | null> {
  if (csrfToken) return csrfToken
  const me = await request<{ csrf_token: string | null }>('GET', '/me')
  csrfToken = me.csrf_token
  return csrfToken
}

export function signInUrl(): string {
  const here = window.location.pathname + window.location.search
  return `/sign-in?return_to=${encodeURIComponent(here)}`
}

async function request<T>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json' }
  const changes = method !== 'GET' && method !== 'HEAD'
  if (changes) {
    headers['content-type'] = 'application/json'
    const token = await ensureCsrfToken()
    if (token) headers['x-csrf-token'] = token
  }
  let response: Response
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: changes ? JSON.stringify(body ?? {}) : undefined,
    })
  } catch {
    throw new ApiError({ status: 0, title: 'Network error', detail: 'Could not reach the server. Check your connection and try again.' })
  }
  if (response.status === 401) {
    window.location.assign(signInUrl())
    throw new ApiError({ status: 401, title: 'Signed out', detail: 'Your session ended. Sign in again.' })
  }
  if (response.status === 204) return undefined as T
  const text = await response.text()
  let parsed: unknown = undefined
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  if (!response.ok) {
    const problem = (parsed && typeof parsed === 'object' ? parsed : {}) as Partial<Problem>
    if (response.status === 403 && problem.code === 'csrf_failed' && !retried) {
      csrfToken = null
      return request<T>(method, path, body, true)
    }
    throw new ApiError({ ...problem, status: response.status, title: problem.title ?? response.statusText })
  }
  return parsed as T
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  delete: (path: string) => request<void>('DELETE', path),
}

/** A query string from the non-empty entries of `params`. */
export function queryString(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') search.set(key, String(value))
  }
  const s = search.toString()
  return s ? `?${s}` : ''
}
