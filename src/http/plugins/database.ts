/** Makes the database handle available to every route as `app.db` (Kysely) and `app.database`. */
import fp from 'fastify-plugin'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/connect.ts'
import type { DB } from '../../db/database.ts'
import type { Config } from '../../config.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<DB>
    database: Database
    config: Config
  }
}

export default fp(
  async (app, opts: { database: Database; config: Config }) => {
    app.decorate('database', opts.database)
    app.decorate('db', opts.database.db)
    app.decorate('config', opts.config)
  },
  { name: 'database' },
)
