/**
 * Listeners told of every record change inside the change's own transaction. The webhooks capability
 * registers its outbox writer here, so records never import webhook tables.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import type { RecordChange } from './record.service.ts'

export type RecordAction = 'created' | 'updated' | 'deleted' | 'converted' | 'escalated'
/**
 * Told of the changes of one action in one write (one change, or a bulk write's many, so a listener
 * can handle them in one statement). Resolves true when it queued work to start after the commit.
 */
export type RecordChangeHook = (trx: Kysely<DB>, auth: AuthContext, action: RecordAction, changes: readonly RecordChange[], options: WriteOptions) => Promise<boolean | void>

export const recordChangeHooks: RecordChangeHook[] = []

/**
 * Called after a write whose hooks queued work has committed (the webhook dispatcher wakes on it, so
 * a delivery starts at once instead of at its next poll). In-process only: other processes poll.
 */
export const committedChangeListeners = new Set<() => void>()

export function changesCommitted(): void {
  for (const listener of committedChangeListeners) listener()
}

/**
 * Per-write options. `suppressEvents` is the explicit switch a bulk importer uses so that a load does
 * not flood receivers; nothing else turns events off.
 */
export interface WriteOptions {
  suppressEvents?: boolean
  /**
   * Set by bulk writes (the batch endpoint, an import page): their events are numbered in the
   * writing transaction, under the organization's journal counter lock, instead of after the commit
   * by the sequencer (src/events/sequencer.ts says why that is safe). `after` is awaited before the
   * lock is taken: an import page waits there for the page ahead of it, which holds the lock until
   * it commits, so two pages never wait on each other in opposite directions.
   */
  numberEvents?: { after?: PromiseLike<unknown> }
}

/** Runs the hooks inside the changes' transaction; true when one queued work for after the commit. */
export async function emitChanges(trx: Kysely<DB>, auth: AuthContext, action: RecordAction, changes: readonly RecordChange[], options: WriteOptions = {}): Promise<boolean> {
  if (options.suppressEvents || changes.length === 0) return false
  let queued = false
  for (const hook of recordChangeHooks) if ((await hook(trx, auth, action, changes, options)) === true) queued = true
  return queued
}

export function emitChange(trx: Kysely<DB>, auth: AuthContext, action: RecordAction, change: RecordChange, options: WriteOptions = {}): Promise<boolean> {
  return emitChanges(trx, auth, action, [change], options)
}
