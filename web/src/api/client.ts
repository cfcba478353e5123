// The one API client of the web app: openapi-fetch typed by cairn-api.d.ts (generated from the
// OpenAPI document by `npm run generate:client`), the CSRF header on changes, RFC 9457 problems
// turned into ApiError, and a 401 sending the browser back to sign-in.
import createClient, { type Middleware } from 'openapi-fetch'
import type { components, paths } from './cairn-api.d.ts'

/** The API's named schemas: `Schemas['Webhook']`, `Schemas['AccountPage']`... */
export type Schemas = components['schemas']
export type Problem = Schemas['Problem']
export type FieldError = NonNullable<Problem['errors']>[number]

export class ApiError extends Error {
  readonly status: number
  readonly code: string | undefined
  readonly fieldErrors: FieldError[]
  constructor(problem: Partial<Problem> & { status: number }) {
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

export function signInUrl(): string {
  const here = window.location.pathname + window.location.search
  return `/sign-in?return_to=${encodeURIComponent(here)}`
}

const csrfHeader: Middleware = {
  async onRequest({ request }) {
    if (request.method === 'GET' || request.method === 'HEAD') return undefined
    if (!csrfToken) csrfToken = (await call(() => cairn.GET('/api/v1/me'))).csrf_token ?? null
    if (csrfToken) request.headers.set('x-csrf-token', csrfToken)
    return request
  },
}

/** Typed by the generated paths: `cairn.GET('/api/v1/webhooks/{id}', { params: { path: { id } } })`. */
export const cairn = createClient<paths>({ credentials: 'same-origin', headers: { accept: 'application/json, application/problem+json' } })
cairn.use(csrfHeader)

type Answer = { data?: unknown; error?: unknown; response: Response }
/** What an openapi-fetch call answers on success. */
type DataOf<A> = A extends { data: infer D; error?: never } ? D : never

/**
 * Runs an openapi-fetch call and answers its data, or throws ApiError with the problem the server
 * sent. A refused CSRF token (expired session state) is fetched again and the call repeated once.
 */
export async function call<A extends Answer>(send: () => Promise<A>, retried = false): Promise<DataOf<A>> {
  let answer: A
  try {
    answer = await send()
  } catch {
    throw new ApiError({ status: 0, title: 'Network error', detail: 'Could not reach the server. Check your connection and try again.' })
  }
  const { response } = answer
  if (response.status === 401) {
    window.location.assign(signInUrl())
    throw new ApiError({ status: 401, title: 'Signed out', detail: 'Your session ended. Sign in again.' })
  }
  if (response.ok) return answer.data as DataOf<A>
  const problem = (answer.error && typeof answer.error === 'object' ? answer.error : {}) as Partial<Problem>
  if (response.status === 403 && problem.code === 'csrf_failed' && !retried) {
    csrfToken = null
    return call(send, true)
  }
  throw new ApiError({ ...problem, status: response.status, title: problem.title ?? response.statusText })
}
