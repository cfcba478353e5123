/**
 * vitest globalSetup: builds the migrated templates once per run, before any worker starts, so the
 * workers only clone them (test/helpers/database-templates.ts). A worker that finds one missing (a
 * run without this setup) builds it itself, under the same guards.
 */
import { ensurePgliteTemplate, ensurePostgresTemplate } from './database-templates.ts'
import { isPostgresReachable, testDatabaseUrl } from './databases.ts'

export default async function setup(): Promise<void> {
  await Promise.all([ensurePgliteTemplate(), (async () => (await isPostgresReachable()) && ensurePostgresTemplate(testDatabaseUrl))()])
}
