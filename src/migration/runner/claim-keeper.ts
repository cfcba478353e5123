/**
 * Keeps a process's claim on a migration while it works on it: renews the lease at a third of its
 * length, and tells the job when to stop at its next page: the claim was lost (another process
 * took over after this one stalled) or a person asked to cancel.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { renewLease } from '../migration.repository.ts'

export class ClaimLost extends Error {
  constructor() {
    super('Another process took over this migration.')
  }
}

export class CancelRequested extends Error {
  constructor() {
    super('Cancelled by a person.')
  }
}

export interface ClaimKeeper {
  /** Throws ClaimLost or CancelRequested when the job must stop; cheap enough to call per page. */
  gate(): Promise<void>
  stop(): void
}

/** `stopping`: the process is shutting down; the job stops at its next page like one that lost its claim. */
export function keepClaim(db: Kysely<DB>, orgId: string, id: string, owner: string, leaseMs: number, now: () => Date, stopping: () => boolean): ClaimKeeper {
  let lost = false
  const renew = async () => {
    try {
      if (!(await renewLease(db, orgId, id, owner, new Date(now().getTime() + leaseMs)))) lost = true
    } catch {
      // A failed renewal is retried at the next tick; the lease is long enough for a few misses.
    }
  }
  const timer = setInterval(() => void renew(), Math.max(250, Math.floor(leaseMs / 3)))
  timer.unref()
  return {
    async gate() {
      if (lost || stopping()) throw new ClaimLost()
      const r = await sql<{ cancel: boolean; owner: string | null }>`
        SELECT cancel_requested_at IS NOT NULL AS cancel, lease_owner AS owner FROM migrations WHERE org_id = ${orgId} AND id = ${id}`.execute(db)
      const row = r.rows[0]
      if (!row || row.owner !== owner) throw new ClaimLost()
      if (row.cancel) throw new CancelRequested()
    },
    stop() {
      clearInterval(timer)
    },
  }
}
