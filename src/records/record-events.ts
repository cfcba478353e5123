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
