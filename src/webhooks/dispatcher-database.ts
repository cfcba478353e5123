/**
 * The dispatcher's own PostgreSQL connections, beside the API's pool: a turn (one statement that
 * writes outcomes and claims what is due) then never waits for a connection behind a queue of API
 * requests, which under load delayed it by tens of milliseconds and, while the service was still
 * warming up, by hundreds; and API requests never wait behind a turn.
 *
 * The embedded database is one in-process connection: there the app's own handle is used.
 */
import type { Kysely } from 'kysely'
import { openPostgres, type Database } from '../db/connect.ts'
import type { DB } from '../db/database.ts'

// One for the turns, one for failures and endpoint health written beside them.
const CONNECTIONS = 2

export interface DispatcherDatabase {
  db: Kysely<DB>
  close(): Promise<void>
}

export async function openDispatcherDatabase(database: Database): Promise<DispatcherDatabase> {
  if (database.kind !== 'postgres' || !database.connectionString) return { db: database.db, close: async () => {} }
  const own = await openPostgres(database.connectionString, { max: CONNECTIONS })
  return { db: own.db, close: () => own.close() }
}
