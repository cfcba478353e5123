/**
 * Resource indicators (RFC 8707): a token is bound to the resource it was asked for. One for the
 * service origin serves the REST API and /mcp; one for /mcp serves /mcp only (docs/decisions.md).
 */
import { InvalidTarget } from './oauth.errors.ts'

export interface Resources {
  api: string
  mcp: string
}

export function resourcesOf(publicUrl: string): Resources {
  return { api: publicUrl, mcp: `${publicUrl}/mcp` }
}

/**
 * The canonical form of a requested resource, or invalid_target. A bare origin may come with a
 * trailing slash (`new URL(origin).href` adds one; checklist D.4), so both forms are accepted.
 */
export function normalizeResource(raw: string | undefined, resources: Resources): string {
  if (raw === undefined || raw === '') return resources.api
  if (raw.includes('#')) throw new InvalidTarget('resource must not contain a fragment (RFC 8707 §2)')
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new InvalidTarget('resource must be an absolute URI (RFC 8707 §2)')
  }
  if (url.search) throw new InvalidTarget('resource must not contain a query')
  const canonical = raw.replace(/\/$/, '')
  if (canonical === resources.api || canonical === resources.mcp) return canonical
  throw new InvalidTarget(`resource must be ${resources.api} or ${resources.mcp}`)
}

/** The resources whose tokens serve a request to `requested`: the origin's serve both, /mcp's only /mcp. */
export function resourcesServing(requested: 'api' | 'mcp', resources: Resources): string[] {
  return requested === 'mcp' ? [resources.api, resources.mcp] : [resources.api]
}

