/**
 * A database prepared for a service that runs as a child process (crash and memory tests): migrated
 * (cloned from the template), with an organization, its administrator and a signed-in session, and
 * the environment that points the service at it (DATABASE_URL, or DATA_DIR for the embedded database). The embedded database is
 * closed again before the service opens it: one process per data folder.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openPostgres, type Database } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { createSession, findSession, SESSION_COOKIE } from '../../src/orgs/session.service.ts'
import { createPostgresDatabase, openMigratedEmbedded, type TargetName } from './databases.ts'

export interface ServiceDatabase {
  env: Record<string, string>
  orgId: string
  /** Headers of the administrator's session: the cookie, and the CSRF header writes need. */
  headers: { cookie: string; 'x-csrf-token': string }
  drop(): Promise<void>
}

/** Prepares the database; `seed` may write more before it is handed to the service. */
export async function prepareServiceDatabase(target: TargetName, seed?: (database: Database, orgId: string) => Promise<void>): Promise<ServiceDatabase> {
  let database: Database
  let env: Record<string, string>
  let drop: () => Promise<void>
  if (target === 'postgres') {
    const created = await createPostgresDatabase({ migrated: true })
    database = await openPostgres(created.url)
    env = { DATABASE_URL: created.url }
    drop = created.drop
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-service-'))
    database = await openMigratedEmbedded(dir)
    env = { DATA_DIR: dir }
    drop = async () => fs.rmSync(dir, { recursive: true, force: true })
  }
  try {
    await migrateToLatest(database)
    const { orgId, userId } = await createOrganizationWithAdmin(database.db, { name: 'Child service org', adminEmail: 'admin@example.test', adminPassword: 'correct horse battery' })
    const session = await createSession(database.db, userId, orgId, 3600)
    const csrf = (await findSession(database.db, session))!.csrfToken
    await seed?.(database, orgId)
    return { env, orgId, headers: { cookie: `${SESSION_COOKIE}=${session}`, 'x-csrf-token': csrf }, drop }
  } finally {
    await database.close()
  }
}
