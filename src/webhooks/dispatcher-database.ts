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
import { hostUrls } from '../db/host-list.ts'
import type { DB } from '../db/database.ts'

// One for the turns, one for failures and endpoint health written beside them.
const CONNECTIONS = 2

export interface DispatcherDatabase {
  db: Kysely<DB>
  close(): Promise<void>
}

export async function openDispatcherDatabase(database: Database): Promise<DispatcherDatabase> {
  if (database.kind !== 'postgres' || !database.connectionString) return { db: database.db, close: async () => {} }
  const own = await openPostgres(hostUrls(database.connectionString).map(withoutCommitWait), { max: CONNECTIONS })
  return { db: own.db, close: () => own.close() }
}

/**
 * The dispatcher's commits do not wait for the WAL flush (`synchronous_commit = off`, these
 * connections only). What a PostgreSQL crash can then lose is its last fraction of a second of
 * dispatcher writes: leases, outcomes, retry times, endpoint health. Each loss only sends a
 * delivery again (a lost lease or success makes it due again; a lost retry time makes it due
 * sooner), which at-least-once delivery allows and receivers already de-duplicate on `webhook-id`.
 * Events and their deliveries are written by the API's own transactions, with full durability.
 */
function withoutCommitWait(connectionString: string): string {
  const url = new URL(connectionString)
  const options = url.searchParams.get('options')
  url.searchParams.set('options', `${options ? `${options} ` : ''}-c synchronous_commit=off`)
  return url.href
}
