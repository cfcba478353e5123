// Owns the state shared by all routes of one running simulator: the two orgs, OAuth sessions,
// per-org allowances, faults, Bulk jobs and options; plus the helpers every API route uses to
// authenticate a request (Bearer token -> org) and to read the API version from the path.
import type { FastifyRequest } from 'fastify'
import type { Org } from '../org.ts'
import type { SimOptions } from '../options.ts'
import { invalidSession, notFound } from '../errors.ts'
import type { Sessions } from './sessions.ts'
import type { Allowance } from './allowance.ts'
import type { Faults } from './faults.ts'
import type { BulkJobs } from './bulk-jobs.ts'

export interface SimContext {
  production: Org
  sandbox: Org
  sessions: Sessions
  allowances: Map<string, Allowance>
  faults: Faults
  jobs: BulkJobs
  options: SimOptions
  /** Base URL clients reach us at (instance_url); set once listening. */
  baseUrl: string
}

export const LATEST = '62.0'
const MIN_VERSION = 20

/** `v62.0` -> `62.0`; `latest` is accepted as an alias. Unknown versions are NOT_FOUND. */
export function versionOf(raw: string): string {
  if (raw === 'latest') return LATEST
  const m = /^v(\d{2})\.0$/.exec(raw)
  if (!m || Number(m[1]) < MIN_VERSION || Number(m[1]) > Number(LATEST)) throw notFound()
  return `${m[1]}.0`
}

export function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization
  if (!h) return null
  const m = /^(?:Bearer|OAuth)\s+(.+)$/i.exec(h)
  return m ? m[1].trim() : null
}

export function orgOf(ctx: SimContext, req: FastifyRequest): Org {
  const cached = (req as FastifyRequest & { simOrg?: Org }).simOrg
  if (cached) return cached
  const token = bearer(req)
  const s = token ? ctx.sessions.session(token) : null
  if (!s) throw invalidSession()
  ;(req as FastifyRequest & { simOrg?: Org }).simOrg = s.org
  return s.org
}
