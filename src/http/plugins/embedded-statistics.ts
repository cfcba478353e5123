/**
 * Planner statistics for the embedded database. PGlite runs no autovacuum, so its tables are never
 * analyzed: PostgreSQL then plans a list page as a scan and sort of the whole organization (24-60 ms
 * a page at 20,000 records) instead of a walk of 51 index entries (0.3 ms), and the embedded
 * default served 96 list requests a second where it serves 723 once analyzed (docs/benchmarks.md).
 * So every process on the embedded database analyzes it shortly after start and every ten minutes,
 * as autovacuum would. The periodic run is a VACUUM (ANALYZE): it also merges the search GINs'
 * pending lists (migration 0020 lets them grow to 64 MB), which every substring search otherwise
 * reads sequentially (100,000 new contacts: 120-160 ms a search before, 2-6 ms after; 1.3 s for the
 * VACUUM), and frees dead row versions, which nothing else would. On PostgreSQL autovacuum does this
 * and the plugin does nothing.
 *
 * Like autovacuum, a run takes only the tables that changed, one statement each. A whole-database
 * VACUUM (ANALYZE) held the one connection for every table at once: 0.65-0.95 s without an answer
 * to any request, at every start and every ten minutes, even with nothing changed. PGlite keeps no
 * row counters (pg_stat_user_tables stays at zero), so "changed" is read from the table's size: a
 * table never analyzed that holds pages, or one whose size moved by more than a tenth (and 8
 * pages) from what its last VACUUM or ANALYZE recorded (`relpages`). Between two tables, waiting
 * requests take their turn.
 */
import fp from 'fastify-plugin'
import { sql } from 'kysely'
import { runPeriodically } from './periodic.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * ANALYZE on the embedded database (nothing on PostgreSQL); with `vacuum`, VACUUM (ANALYZE), the
     * timer's work: also merges the search indexes' pending lists (after a bulk write).
     */
    refreshStatistics(options?: { vacuum?: boolean }): Promise<void>
  }
}

const EVERY_MS = 10 * 60 * 1000
const FIRST_AFTER_MS = 30 * 1000

/** The tables of the service's schema whose statistics are stale by the rule above. */
const staleTables = sql<{ name: string }>`
  SELECT c.relname AS name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = current_schema() AND c.relkind = 'r'
    AND ((c.reltuples < 0 AND pg_relation_size(c.oid) > 0)
      OR abs(pg_relation_size(c.oid) / current_setting('block_size')::int - c.relpages) > 8 + c.relpages / 10)
  ORDER BY c.relname`

export default fp(
  async (app) => {
    const embedded = app.database.kind === 'pglite'
    const run = async (options: { vacuum?: boolean } = {}) => {
      if (!embedded) return
      try {
        const { rows } = await staleTables.execute(app.db)
        for (const { name } of rows) await app.database.execScript(`${options.vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'} "${name.replaceAll('"', '""')}"`)
      } catch (err) {
        app.log.warn({ err }, 'refreshing the embedded database statistics failed; will retry')
      }
    }
    app.decorate('refreshStatistics', run)
    if (embedded) runPeriodically(app, FIRST_AFTER_MS, EVERY_MS, () => run({ vacuum: true }))
  },
  { name: 'embedded-statistics', dependencies: ['database'] },
)
