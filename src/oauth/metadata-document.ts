/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): an https client_id is
 * the URL of a JSON document describing the client. It is fetched through the SSRF guard, checked,
 * and kept as a public client (PKCE only), refreshed when older than an hour.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { guardedRequest, OutboundRefused } from '../shared/outbound/guarded-request.ts'
import { findUnstorableText } from '../shared/storable-text.ts'
import { NestedTooDeep, NotUtf8, parseJsonStrictly } from '../shared/strict-text.ts'
import { findClient } from './client.repository.ts'
import { InvalidClientRequest } from './oauth.errors.ts'
import { MAX_CLIENT_NAME, MAX_REDIRECT_URIS, SUPPORTED_SCOPES } from './oauth.defaults.ts'
import { redirectUriProblem } from './redirect-uri.ts'

const REFRESH_AFTER_MS = 3600 * 1000
const MAX_DOCUMENT_BYTES = 16 * 1024

function documentProblem(url: string, doc: unknown): string | null {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return 'is not a JSON object'
  // The whole document is kept (jsonb) and its name shown: text PostgreSQL cannot store is refused here, not by a failing statement.
  const unstorable = findUnstorableText(doc)
  if (unstorable) return `has text that cannot be stored: ${unstorable.field} ${unstorable.message}`
  const d = doc as Record<string, unknown>
  if (d.client_id !== url) return 'has a client_id different from its URL'
  if (typeof d.client_name !== 'string' || d.client_name.trim() === '' || d.client_name.length > MAX_CLIENT_NAME) return 'needs a client_name'
  if (!Array.isArray(d.redirect_uris) || d.redirect_uris.length === 0 || d.redirect_uris.length > MAX_REDIRECT_URIS) return 'needs redirect_uris'
  for (const uri of d.redirect_uris) if (typeof uri !== 'string' || redirectUriProblem(uri)) return `has an unacceptable redirect URI ${String(uri)}`
  if (d.token_endpoint_auth_method !== undefined && d.token_endpoint_auth_method !== 'none') return 'must use token_endpoint_auth_method none (no shared secret in a public document)'
  return null
}

/** `enabled`: the operator's OAUTH_METADATA_DOCUMENTS; `allowPrivate`: ALLOW_PRIVATE_OUTBOUND. */
export async function resolveMetadataDocumentClient(db: Kysely<DB>, url: string, options: { enabled: boolean; allowPrivate: boolean }) {
  if (!options.enabled) throw new InvalidClientRequest('Client ID Metadata Documents are turned off on this server.')
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new InvalidClientRequest('client_id is not a valid URL.')
  }
  if (parsed.protocol !== 'https:' || parsed.pathname === '/' || parsed.hash || parsed.username) {
    throw new InvalidClientRequest('A URL client_id must be an https URL with a path, no fragment and no userinfo.')
  }
  const stored = await findClient(db, url)
  const fetchedAt = Number((stored?.metadata as { fetched_at?: number } | undefined)?.fetched_at ?? 0)
  if (stored && (stored.revoked_at || Date.now() - fetchedAt < REFRESH_AFTER_MS)) return stored
  let doc: unknown
  try {
    const res = await guardedRequest(url, { allowPrivate: options.allowPrivate, headers: { accept: 'application/json' }, timeoutMs: 5000, maxBodyBytes: MAX_DOCUMENT_BYTES })
    if (res.status !== 200) throw new OutboundRefused(`answered ${res.status}`)
    if (res.truncated) throw new OutboundRefused('is larger than 16 KiB')
    // Strictly: its text is stored (as jsonb) and walked, so bytes that are not UTF-8 and deep nesting are refused too.
    doc = parseJsonStrictly(res.body)
  } catch (err) {
    const reason = err instanceof OutboundRefused ? err.reason : err instanceof NotUtf8 || err instanceof NestedTooDeep ? err.message : 'is not valid JSON'
    throw new InvalidClientRequest(`The client's metadata document could not be used: ${reason}.`)
  }
  const problem = documentProblem(url, doc)
  if (problem) throw new InvalidClientRequest(`The client's metadata document ${problem}.`)
  const d = doc as { client_name: string; redirect_uris: string[]; scope?: string }
  const requestedScopes = typeof d.scope === 'string' ? d.scope.split(' ').filter((s) => (SUPPORTED_SCOPES as readonly string[]).includes(s)) : []
  const row = {
    client_id: url,
    org_id: null,
    name: d.client_name.trim(),
    redirect_uris: d.redirect_uris,
    scopes: requestedScopes.length ? requestedScopes : [...SUPPORTED_SCOPES],
    secret_hash: null,
    auth_method: 'none' as const,
    registration: 'metadata_document' as const,
    metadata: JSON.stringify({ fetched_at: Date.now(), document: doc }),
  }
  await db
    .insertInto('oauth_clients')
    .values(row)
    .onConflict((oc) => oc.column('client_id').doUpdateSet({ name: row.name, redirect_uris: row.redirect_uris, scopes: row.scopes, metadata: row.metadata }))
    .execute()
  return (await findClient(db, url))!
}
