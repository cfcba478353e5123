/** Makes the database handle available to every route as `app.db` (Kysely) and `app.database`, and the secret box that seals with its key. */
import fp from 'fastify-plugin'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/connect.ts'
import type { DB } from '../../db/database.ts'
import type { Config } from '../../config.ts'
import { loadSecretBox, type SecretBox } from '../../shared/secret-box.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<DB>
    /** For reads a streaming replica may serve (lists, counts, search, export, feed, MCP reads); `db` without replicas. */
    readDb: Kysely<DB>
    database: Database
    config: Config
    /** Seals what must be read back but never stored in the clear (webhook secrets, kept answers holding secrets). */
    secretBox: SecretBox
  }
}

export default fp(
  async (app, opts: { database: Database; config: Config }) => {
    app.decorate('database', opts.database)
    app.decorate('db', opts.database.db)
    app.decorate('readDb', opts.database.readDb)
    app.decorate('config', opts.config)
    app.decorate('secretBox', await loadSecretBox(opts.database.db, opts.config.encryptionKey))
  },
  { name: 'database' },
)
