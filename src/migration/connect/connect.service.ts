/**
 * The Connect step by OAuth: Cairn is an OAuth client of the source platform (its client id and
 * secret are operator settings). Starting stores a single-use state with a PKCE verifier and gives
 * the consent URL of the chosen environment; the callback (connect.routes.ts) redeems the code and
 * starts the analysis with the tokens it got.
 */
import { writeTransaction } from '../../db/write-transaction.ts'
import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { AuthContext } from '../../shared/auth-context.ts'
import { Conflict } from '../../shared/errors.ts'
import { randomSecret, sha256 } from '../../shared/ids.ts'
import { CONNECT_STATE_TTL_SECONDS } from '../migration.defaults.ts'
import type { SourceEnvironment } from '../migration.types.ts'
import { authorizationUrl } from '../source/source-connection.ts'

export const CONNECT_CALLBACK_PATH = '/migration/oauth/callback'

export function loginUrlOf(app: FastifyInstance, environment: SourceEnvironment): string {
  return environment === 'sandbox' ? app.config.sourceSandboxLoginUrl : app.config.sourceLoginUrl
}

export async function startConnect(app: FastifyInstance, auth: AuthContext, environment: SourceEnvironment, now: Date): Promise<string> {
  const { sourceClientId, sourceClientSecret } = app.config
  if (!sourceClientId || !sourceClientSecret) {
    throw new Conflict('Connecting to the source platform by OAuth is not set up on this service: the operator sets SOURCE_CLIENT_ID and SOURCE_CLIENT_SECRET. Meanwhile, start with an access token (POST /api/v1/migration/analyze).')
  }
  // The state and verifier are the outcome a keyed retry gets back (kept sealed: the route's answer holds a secret).
  const { state, verifier } = await writeTransaction(app.db, auth.receipt, async (trx) => {
    const secrets = { state: randomSecret(32), verifier: randomSecret(48) }
    await sql`
      INSERT INTO migration_oauth_states (state_hash, org_id, user_id, environment, code_verifier_sealed, created_at, expires_at)
      VALUES (${sha256(secrets.state)}, ${auth.orgId}, ${auth.userId}, ${environment}, ${app.secretBox.seal(secrets.verifier)}, ${now},
              ${new Date(now.getTime() + CONNECT_STATE_TTL_SECONDS * 1000)})`.execute(trx)
    return secrets
  })
  return authorizationUrl({
    loginUrl: loginUrlOf(app, environment),
    clientId: sourceClientId,
    redirectUri: `${app.config.publicUrl}${CONNECT_CALLBACK_PATH}`,
    state,
    codeChallenge: crypto.createHash('sha256').update(verifier).digest('base64url'),
  })
}

export interface ConnectState {
  orgId: string
  userId: string
  environment: SourceEnvironment
  verifier: string
}

/** Takes a state once (deleted as it is read); null when unknown or expired. */
export async function takeConnectState(app: FastifyInstance, state: string, now: Date): Promise<ConnectState | null> {
  const r = await sql<{ org_id: string; user_id: string; environment: SourceEnvironment; code_verifier_sealed: string; expires_at: Date }>`
    DELETE FROM migration_oauth_states WHERE state_hash = ${sha256(state)}
    RETURNING org_id, user_id, environment, code_verifier_sealed, expires_at`.execute(app.db)
  const row = r.rows[0]
  if (!row || new Date(row.expires_at) < now) return null
  return { orgId: row.org_id, userId: row.user_id, environment: row.environment, verifier: app.secretBox.open(row.code_verifier_sealed) }
}
