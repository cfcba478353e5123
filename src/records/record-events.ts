/**
 * Listeners told of every record change inside the change's own transaction. The webhooks capability
 * registers its outbox writer here, so records never import webhook tables.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import type { RecordChange } from './record.service.ts'

export type RecordAction = 'created' | 'updated' | 'deleted' | 'converted' | 'escalated'
export type RecordChangeHook = (trx: Kysely<DB>, auth: AuthContext, action: RecordAction, change: RecordChange) => Promise<void>

export const recordChangeHooks: RecordChangeHook[] = []

/**
 * Per-write options. `suppressEvents` is the explicit switch a bulk importer uses so that a load does
 * not flood receivers; nothing else turns events off.
 */
export interface WriteOptions {
  suppressEvents?: boolean
}

export async function emitChange(trx: Kysely<DB>, auth: AuthContext, action: RecordAction, change: RecordChange, options: WriteOptions = {}): Promise<void> {
  if (options.suppressEvents) return
  for (const hook of recordChangeHooks) await hook(trx, auth, action, change)
}
