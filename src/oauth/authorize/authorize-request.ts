/**
 * The authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 8707 §2) as the checks see it,
 * read from the query (GET) or the consent form (POST) alike.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { Resources } from '../resource.ts'

export interface AuthorizeParams {
  response_type?: string
  client_id?: string
  redirect_uri?: string
  scope?: string
  state?: string
  code_challenge?: string
  code_challenge_method?: string
  resource?: string
}

export const AUTHORIZE_PARAM_NAMES: (keyof AuthorizeParams)[] = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
]

export interface ClientView {
  client_id: string
  org_id: string | null
  name: string
  redirect_uris: string[]
  scopes: string[]
  registration: 'settings' | 'cli' | 'dynamic' | 'metadata_document'
}

export interface AuthorizeContext {
  db: Kysely<DB>
  params: AuthorizeParams
  /** Parameter names that appeared more than once (RFC 6749 §3.1: an error). */
  repeated: string[]
  issuer: string
  resources: Resources
  allowPrivateOutbound: boolean
  /** The operator accepts https client_id URLs (Client ID Metadata Documents). */
  metadataDocuments: boolean
  now: Date
  // Filled in by the checks, in order:
  client?: ClientView
  redirectUri?: string
  redirectUriSent?: boolean
  scopes?: string[]
  resource?: string
  codeChallenge?: string
}

export type AuthorizeCheck = (ctx: AuthorizeContext) => Promise<void> | void

/** Reads the known parameters; repeated ones are noted, unknown ones ignored (RFC 6749 §3.1). */
export function readAuthorizeParams(source: Record<string, unknown>): { params: AuthorizeParams; repeated: string[] } {
  const params: AuthorizeParams = {}
  const repeated: string[] = []
  for (const name of AUTHORIZE_PARAM_NAMES) {
    const value = source[name]
    if (Array.isArray(value)) {
      repeated.push(name)
      params[name] = String(value[0])
    } else if (typeof value === 'string') {
      params[name] = value
    }
  }
  return { params, repeated }
}
