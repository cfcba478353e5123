/**
 * Migration from a Salesforce-compatible source platform (issue 7, docs/migration.md).
 * This folder owns: the state machine and its API (migration.*), the Connect step by OAuth
 * (connect/), the source-platform client (source/: jsforce behind the SSRF guard, retries, readers),
 * field mapping (mapping/), the analyzer (analysis/), the importer (import/: page upserts keyed by
 * src_id, references, deduplication, re-linking, validation), the background runner (runner/:
 * leased claims, analysis and import jobs) and the live event stream.
 */
import type { ChangeJournal } from '../records/index.ts'
import fp from 'fastify-plugin'
import type { Clock } from '../shared/clock.ts'
import { releaseAllLeases } from './migration.repository.ts'
import { startMigrationRunner, type MigrationRunner } from './runner/runner.ts'
import { configureSourceOutbound } from './source/source-outbound.ts'

// The source platform's field catalogue: CSV imports map a source export's column names with it.
export { CATALOGUE } from './mapping/catalogue.ts'
export { migrationRoutes } from './migration.routes.ts'
export { migrationEventRoutes } from './migration-events.routes.ts'
export { connectCallbackRoutes } from './connect/connect.routes.ts'
// Records' SourceAliases port onto the migration's links: CSV imports resolve source ids through it too.
export { sourceLinks } from './import/source-links.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Null in processes that do no background work (SERVICE_ROLE=web). */
    migrationRunner: MigrationRunner | null
  }
}

export const migrationPlugin = fp(
  async (app, opts: { clock: Clock; journal: ChangeJournal }) => {
    configureSourceOutbound({ allowPrivate: app.config.allowPrivateOutbound })
    app.decorate('migrationRunner', null)
    if (app.config.role === 'web') return
    app.addHook('onReady', async () => {
      // The embedded database belongs to this one process: claims left by its previous run are void.
      if (app.database.kind === 'pglite') await releaseAllLeases(app.db)
      app.migrationRunner = startMigrationRunner({ db: app.db, journal: opts.journal, box: app.secretBox, config: app.config, clock: opts.clock, log: app.log.child({ component: 'migration' }), single: app.database.kind === 'pglite' })
    })
    app.addHook('onClose', async () => {
      await app.migrationRunner?.stop()
    })
  },
  { name: 'migration', dependencies: ['database', 'webhooks'] },
)
