/**
 * OAuth clients: creating them (Settings, CLI, dynamic registration, metadata documents), checking
 * their secrets, listing and revoking them per organization.
 */
import { writeTransaction } from '../db/write-transaction.ts'
import type { WriteReceipt } from '../shared/auth-context.ts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { ValidationFailed } from '../shared/errors.ts'
import { constantTimeEqual, randomSecret, sha256 } from '../shared/ids.ts'
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, MAX_CLIENT_NAME, MAX_REDIRECT_URIS, SECRET_BYTES, SUPPORTED_SCOPES } from './oauth.defaults.ts'
import { redirectUriProblem } from './redirect-uri.ts'
import { ensureClientAccess, insertClient, listClientsOfOrg } from './client.repository.ts'
import type { FieldError } from '../shared/errors.ts'

export interface ClientInput {
  name: string
  redirectUris: string[]
  scopes: string[]
}

export interface CreatedClient {
  client_id: string
  client_secret: string
  name: string
  redirect_uris: string[]
  scopes: string[]
}

export function clientInputProblems(input: ClientInput): FieldError[] {
  const errors: FieldError[] = []
  if (input.name.trim() === '' || input.name.length > MAX_CLIENT_NAME) errors.push({ field: 'name', message: `must be 1 to ${MAX_CLIENT_NAME} characters` })
  if (input.name.includes('\0')) errors.push({ field: 'name', message: 'must not contain NUL characters' }) // a 500 in PostgreSQL otherwise
  if (input.redirectUris.length === 0 || input.redirectUris.length > MAX_REDIRECT_URIS) errors.push({ field: 'redirect_uris', message: `must list 1 to ${MAX_REDIRECT_URIS} URIs` })
  input.redirectUris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri)
    if (problem) errors.push({ field: `redirect_uris.${i}`, message: problem })
  })
  if (input.scopes.length === 0) errors.push({ field: 'scopes', message: `must list at least one of ${SUPPORTED_SCOPES.join(', ')}` })
  for (const s of input.scopes) if (!(SUPPORTED_SCOPES as readonly string[]).includes(s)) errors.push({ field: 'scopes', message: `${s} is not one of ${SUPPORTED_SCOPES.join(', ')}` })
  return errors
}

export function newClientId(): string {
  return `${CLIENT_ID_PREFIX}${randomSecret(16)}`
}

export function newClientSecret(): string {
  return `${CLIENT_SECRET_PREFIX}${randomSecret(SECRET_BYTES)}`
}

/** A confidential client of an organization (Settings -> API, or the CLI). The secret is shown once. */
export async function createOrgClient(db: Kysely<DB>, orgId: string, input: ClientInput, registration: 'settings' | 'cli', receipt?: WriteReceipt): Promise<CreatedClient> {
  const errors = clientInputProblems(input)
  if (errors.length) throw new ValidationFailed(errors.map((e) => `${e.field} ${e.message}`).join('; ') + '.', errors)
  const scopes = [...new Set(input.scopes)]
  const redirectUris = [...new Set(input.redirectUris)]
  // The id and secret are the outcome a keyed retry gets back (kept sealed), not a second client.
  const { clientId, secret } = await writeTransaction(db, receipt, async (trx) => {
    const clientId = newClientId()
    const secret = newClientSecret()
    await insertClient(trx, {
      client_id: clientId,
      org_id: orgId,
      name: input.name.trim(),
      redirect_uris: redirectUris,
      scopes,
      secret_hash: sha256(secret),
      auth_method: 'client_secret_basic',
      registration,
    })
    await ensureClientAccess(trx, orgId, clientId)
    return { clientId, secret }
  })
  return { client_id: clientId, client_secret: secret, name: input.name.trim(), redirect_uris: redirectUris, scopes }
}

export function secretMatches(secretHash: Uint8Array | null, presented: string): boolean {
  if (!secretHash) return false
  // Compare the hashes in constant time; the stored value is a hash already. (PGlite returns
  // bytea as a Uint8Array, `pg` as a Buffer: wrap it either way.)
  return constantTimeEqual(Buffer.from(secretHash).toString('hex'), sha256(presented).toString('hex'))
}

export async function listOrgClients(db: Kysely<DB>, orgId: string) {
  const rows = await listClientsOfOrg(db, orgId)
  return rows.map((r) => ({
    client_id: r.client_id,
    name: r.name,
    redirect_uris: r.redirect_uris,
    scopes: r.scopes,
    registration: r.registration,
    origin: r.registration === 'metadata_document' ? new URL(r.client_id).host : null,
    created_at: new Date(r.created_at).toISOString(),
    last_used_at: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
    revoked_at: r.revoked_at ? new Date(r.revoked_at).toISOString() : r.client_revoked_at ? new Date(r.client_revoked_at).toISOString() : null,
    status: r.revoked_at || r.client_revoked_at ? 'revoked' : 'active',
  }))
}
