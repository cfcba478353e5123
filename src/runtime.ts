/**
 * Starts the whole service against a configuration: database, migrations, HTTP app, background
 * work. Used by server.ts (the process) and by tests that need a real listening service.
 */
import type { FastifyInstance } from 'fastify'
import type { Config } from './config.ts'
import { openDatabase, type Database } from './db/connect.ts'
import { migrateToLatest } from './db/migrate.ts'
import { buildApp } from './app.ts'

export interface RunningService {
  app: FastifyInstance
  database: Database
  url: string
  close(): Promise<void>
}

export async function startService(config: Config, options: { logger?: boolean | object; database?: Database } = {}): Promise<RunningService> {
  const database = options.database ?? (await openDatabase(config))
  try {
    await migrateToLatest(database)
    const app = await buildApp({ config, database, logger: options.logger })
    // A worker only does background work (webhook deliveries): it starts the app but serves nothing.
    if (config.role === 'worker') await app.ready()
    else await app.listen({ port: config.port, host: config.host })
    const address = config.role === 'worker' ? null : app.server.address()
    const port = typeof address === 'object' && address ? address.port : config.port
    return {
      app,
      database,
      url: `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`,
      async close() {
        await app.close()
        if (!options.database) await database.close()
      },
    }
  } catch (err) {
    if (!options.database) await database.close()
    throw err
  }
}
