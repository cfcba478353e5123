/**
 * Opens the source platform for a stored migration: unseals its tokens, and seals and stores the
 * new access token whenever the client refreshes it, so a restarted process continues with it.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { Config } from '../../config.ts'
import type { SecretBox } from '../../shared/secret-box.ts'
import type { MigrationRow } from '../migration.repository.ts'
import { openSourceConnection, type SourceConnection } from '../source/source-connection.ts'
import { SourceAuthFailed } from '../source/source-errors.ts'

export async function openSourceFor(db: Kysely<DB>, box: SecretBox, config: Config, m: MigrationRow): Promise<SourceConnection> {
  if (!m.access_token_sealed) throw new SourceAuthFailed('The source platform credentials of this migration were deleted; connect again.')
  return openSourceConnection(
    {
      instanceUrl: m.src_instance_url,
      accessToken: box.open(m.access_token_sealed),
      refreshToken: m.refresh_token_sealed ? box.open(m.refresh_token_sealed) : null,
      loginUrl: m.src_login_url,
    },
    {
      clientId: config.sourceClientId ?? undefined,
      clientSecret: config.sourceClientSecret ?? undefined,
      apiVersion: config.sourceApiVersion,
      allowPrivate: config.allowPrivateOutbound,
      onTokenRefresh: async (accessToken) => {
        await sql`UPDATE migrations SET access_token_sealed = ${box.seal(accessToken)} WHERE org_id = ${m.org_id} AND id = ${m.id} AND access_token_sealed IS NOT NULL`.execute(db)
      },
    },
  )
}
