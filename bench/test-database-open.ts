/**
 * One test database's open, in a fresh process as a vitest fork is: before (create and migrate) and
 * after (clone the migrated template). `node bench/test-database-open.ts pglite-old|pglite-new|postgres-old|postgres-new`
 * (PostgreSQL from TEST_DATABASE_URL). docs/benchmarks.md, "Test suite wall time".
 */
import { openEmbedded, openPostgres } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { createPostgresDatabase, openMigratedEmbedded } from '../test/helpers/databases.ts'
const mode = process.argv[2]
const t = performance.now()
let close: () => Promise<void>
if (mode.startsWith('pglite')) {
  const d = mode === 'pglite-old' ? await openEmbedded(null) : await openMigratedEmbedded(null)
  await migrateToLatest(d)
  close = () => d.close()
} else {
  const c = await createPostgresDatabase({ migrated: mode === 'postgres-new' })
  const d = await openPostgres(c.url)
  await migrateToLatest(d)
  close = async () => { await d.close(); await c.drop() }
}
console.log(mode, Math.round(performance.now() - t), 'ms')
await close()
