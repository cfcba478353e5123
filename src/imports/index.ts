/**
 * CSV in and out (issue 19, docs/imports.md). This folder owns: the export of any list as a CSV
 * file (export.routes.ts), and imports: the API (import.routes.ts), reading the upload into the
 * database (upload.ts), checking the request and proposing a mapping from the header
 * (import-request.ts, header-mapping.ts), reading cells (cell-values.ts, csv-reading.ts), the job
 * that imports a file page by page through the records' bulk write path (import-job.ts), its
 * leased background runner (runner.ts) and the SQL of imports, their files and issues
 * (import.repository.ts). Records are reached only through src/records/index.ts.
 */
import type { ChangeJournal, SourceAliases } from '../records/index.ts'
import fp from 'fastify-plugin'
import type { Clock } from '../shared/clock.ts'
import { releaseAllImportLeases } from './import.repository.ts'
import { startImportRunner, type ImportRunner } from './runner.ts'

export { exportRoutes } from './export.routes.ts'
export { importRoutes } from './import.routes.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Null in processes that do no background work (SERVICE_ROLE=web). */
    importRunner: ImportRunner | null
  }
}

export const importsPlugin = fp(
  async (app, opts: { clock: Clock; journal: ChangeJournal; sourceAliases: SourceAliases }) => {
    app.decorate('importRunner', null)
    if (app.config.role === 'web') return
    app.addHook('onReady', async () => {
      // The embedded database belongs to this one process: claims left by its previous run are void.
      if (app.database.kind === 'pglite') await releaseAllImportLeases(app.db)
      app.importRunner = startImportRunner({
        db: app.db,
        journal: opts.journal,
        sourceAliases: opts.sourceAliases,
        clock: opts.clock,
        log: app.log.child({ component: 'imports' }),
        concurrency: app.config.importConcurrency,
        leaseSeconds: app.config.importLeaseSeconds,
        single: app.database.kind === 'pglite',
        refreshStatistics: app.database.kind === 'pglite' ? (options) => app.refreshStatistics(options) : undefined,
      })
    })
    app.addHook('onClose', async () => {
      await app.importRunner?.stop()
    })
  },
  { name: 'imports', dependencies: ['database', 'embedded-statistics'] },
)
