/**
 * Who is calling, for which organization, with which scopes: set on `request.auth` by the session
 * or bearer check and passed to every service call, so tenancy shows in every signature.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'

export type Scope = 'crm:read' | 'crm:write' | 'erp:read'
export const ALL_SCOPES: readonly Scope[] = ['crm:read', 'crm:write', 'erp:read']

export interface AuthContext {
  orgId: string
  /** The signed-in person (a session, or the person who consented to a token). */
  userId: string | null
  role: 'admin' | 'member'
  scopes: ReadonlySet<Scope>
  via: 'session' | 'bearer'
  clientId?: string
  /** Set on a request sent with an Idempotency-Key: its writes record their outcome as they commit. */
  receipt?: WriteReceipt
}

/**
 * How a keyed request's write transactions make the request's outcome durable (docs/api.md,
 * Idempotent retries): each records, inside its own transaction, that it committed and what it
 * returned; a retry of a request whose first attempt committed but never answered gets those
 * outcomes back, in order, instead of writing again (db/write-transaction.ts).
 */
export interface WriteReceipt {
  /** The next outcome the first attempt committed, to return instead of writing; null: write. */
  takeReplayed(): { outcome: unknown } | null
  /** Records the outcome within the write's transaction; throws (rolling it back) if the claim was lost. */
  record(trx: Kysely<DB>, outcome: unknown): Promise<void>
}
