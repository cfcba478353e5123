/** The client exists and is not revoked; an https client_id is a metadata document to fetch. */
import { findClient } from '../client.repository.ts'
import { InvalidClientRequest } from '../oauth.errors.ts'
import { MAX_PARAM_LENGTH } from '../oauth.defaults.ts'
import { resolveMetadataDocumentClient } from '../metadata-document.ts'
import type { AuthorizeCheck } from './authorize-request.ts'

export const checkClient: AuthorizeCheck = async (ctx) => {
  if (ctx.repeated.includes('client_id')) throw new InvalidClientRequest('client_id must appear once (RFC 6749 §3.1).')
  const clientId = ctx.params.client_id
  if (!clientId) throw new InvalidClientRequest('client_id is missing.')
  if (clientId.length > MAX_PARAM_LENGTH) throw new InvalidClientRequest('client_id is too long.')
  if (clientId.includes('\0')) throw new InvalidClientRequest('This application is not registered here (unknown client_id).') // NUL: a 500 in PostgreSQL
  const row = clientId.startsWith('https://')
    ? await resolveMetadataDocumentClient(ctx.db, clientId, { enabled: ctx.metadataDocuments, allowPrivate: ctx.allowPrivateOutbound })
    : await findClient(ctx.db, clientId)
  if (!row) throw new InvalidClientRequest('This application is not registered here (unknown client_id).')
  if (row.revoked_at) throw new InvalidClientRequest('This application has been revoked by an administrator.')
  ctx.client = row
}
