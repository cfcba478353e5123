/**
 * Undoing an operation (docs/api.md, Operations): the plan, read from the operation's history, and
 * its run, in chunks of CHUNK_STEPS, each one write transaction of the revert's own operation
 * (records' applyRevertSteps writes the records, the journal journals them like any change) that
 * also moves the revert's progress, so a chunk's changes and its progress commit together.
 *
 * A revert of up to INLINE_STEPS steps runs in the request; a larger one runs in the background in
 * the process that took it, holding a lease it renews per chunk. A POST or GET that finds a running
 * revert whose lease lapsed (its process died) takes it over and carries on from its progress: the
 * plan is the same each time (the operation's history does not change), and is run in a fixed order.
 *
 * One revert per operation: the operation's row is locked while the revert's row is written and
 * named in it (`reverted_by`), so a repeated or concurrent POST finds the same revert.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { recordChanges, recordWrites, type Channel, type ChangeJournal, type RevertStep, type Writer } from '../../records/index.ts'
import { recordKinds, type KindName } from '../../records/contracts.ts'
import type { AuthContext } from '../../shared/auth-context.ts'
import { Forbidden, NotFound } from '../../shared/errors.ts'
import { uuidv7 } from '../../shared/ids.ts'
import {
  changedByOthersSince,
  claimRevert,
  findOperation,
  finishRevert,
  operationChanges,
  recordRevertProgress,
  startRevert,
  type HistoryRow,
  type OperationRow,
} from './history.repository.ts'

/** Reverts of at most this many steps (records) finish within the request. */
export const INLINE_STEPS = 500
/** Steps per write transaction. */
const CHUNK_STEPS = 500
/** How long a revert's worker holds it without finishing a chunk before another may take it over. */
const LEASE_MS = 60_000

export interface RevertDeps {
  db: Kysely<DB>
  journal: ChangeJournal
  log: FastifyBaseLogger
  now: () => Date
}

/** The steps that undo an operation's changes, one per record, in the order they are run. */
export function planRevert(changes: readonly HistoryRow[]): RevertStep[] {
  const byRecord = new Map<string, HistoryRow[]>()
  for (const row of changes) {
    const key = `${row.kind}:${row.record_id}`
    byRecord.set(key, [...(byRecord.get(key) ?? []), row])
  }
  const steps: RevertStep[] = []
  for (const rows of byRecord.values()) {
    const kind = rows[0].kind as KindName
    const id = rows[0].record_id
    const first = rows[0].action
    const last = rows[rows.length - 1]
    // Created (or restored) by the operation: gone afterwards, unless the operation deleted it too.
    if (first === 'created' || first === 'restored') {
      if (last.action !== 'deleted') steps.push({ action: 'delete', kind, id })
      continue
    }
    const fields = new Map<string, { value: unknown; expected: unknown }>()
    for (const row of rows) {
      for (const [field, [old, now]] of Object.entries(row.changes ?? {})) {
        const known = fields.get(field)
        fields.set(field, { value: known ? known.value : old, expected: now })
      }
    }
    if (last.action === 'deleted') {
      // Restored as it was before the operation: the deleted values, with the operation's own earlier changes undone.
      const snapshot = { ...(last.snapshot ?? {}) }
      for (const [field, { value }] of fields) snapshot[field] = value
      steps.push({ action: 'restore', kind, id, snapshot })
      continue
    }
    const reversals = [...fields].filter(([, f]) => JSON.stringify(f.value) !== JSON.stringify(f.expected)).map(([field, f]) => ({ field, ...f }))
    if (reversals.length > 0) steps.push({ action: 'set', kind, id, fields: reversals })
  }
  const kindOrder = (k: KindName) => recordKinds.findIndex((x) => x.name === k)
  // Restores parents first; deletes children first (no reference to a deleted record is left to clear).
  const rank = (s: RevertStep) => (s.action === 'restore' ? kindOrder(s.kind) : s.action === 'set' ? 100 : 200 + (recordKinds.length - kindOrder(s.kind)))
  return steps.sort((a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/**
 * The revert of an operation: the one already started (taken over when its worker died), or a new
 * one. Admins may revert any operation; a member only their own.
 */
export async function revertOperation(deps: RevertDeps, auth: AuthContext, channel: Channel, operationId: string, force: boolean): Promise<OperationRow> {
  const original = await findOperation(deps.db, auth.orgId, operationId)
  if (!original) throw new NotFound('Operation')
  if (auth.role !== 'admin' && original.actor_user_id !== auth.userId) throw new Forbidden('Members may revert only their own operations; an administrator may revert any.')
  if (original.reverted_by) return resumeIfAbandoned(deps, auth, original.reverted_by)
  const changes = await operationChanges(deps.db, auth.orgId, operationId)
  const steps = planRevert(changes)
  const revertId = uuidv7()
  const started = await deps.db.transaction().execute(async (trx) => {
    const locked = await findOperation(trx, auth.orgId, operationId, true)
    if (locked?.reverted_by) return locked.reverted_by
    const now = deps.now()
    await startRevert(trx, auth.orgId, {
      id: revertId,
      reverts: operationId,
      at: now,
      userId: auth.userId,
      clientId: auth.clientId ?? null,
      channel,
      force,
      total: steps.length,
      leaseUntil: new Date(now.getTime() + LEASE_MS),
    })
    return revertId
  })
  if (started !== revertId) return resumeIfAbandoned(deps, auth, started)
  const run = runRevert(deps, auth, channel, await mustFind(deps, auth.orgId, revertId), steps, lastChangeId(changes))
  if (steps.length <= INLINE_STEPS) await run
  else void run
  return mustFind(deps, auth.orgId, revertId)
}

/** A revert as it stands; a running one whose worker stopped renewing its lease is taken over here. */
export async function resumeIfAbandoned(deps: RevertDeps, auth: AuthContext, revertId: string): Promise<OperationRow> {
  const revert = await mustFind(deps, auth.orgId, revertId)
  const now = deps.now()
  if (revert.revert_state !== 'running' || !revert.reverts || (revert.revert_lease_until && revert.revert_lease_until > now)) return revert
  if (!(await claimRevert(deps.db, auth.orgId, revertId, now, new Date(now.getTime() + LEASE_MS)))) return revert
  const changes = await operationChanges(deps.db, auth.orgId, revert.reverts)
  void runRevert(deps, auth, revert.channel as Channel, revert, planRevert(changes), lastChangeId(changes))
  return revert
}

async function mustFind(deps: RevertDeps, orgId: string, id: string): Promise<OperationRow> {
  const row = await findOperation(deps.db, orgId, id)
  if (!row) throw new NotFound('Operation')
  return row
}

function lastChangeId(changes: readonly HistoryRow[]): string {
  return changes.length > 0 ? changes[changes.length - 1].id : '00000000-0000-0000-0000-000000000000'
}

/** Runs the steps not yet done, a chunk per transaction; marks the revert succeeded, or failed on an error. */
async function runRevert(deps: RevertDeps, auth: AuthContext, channel: Channel, revert: OperationRow, steps: readonly RevertStep[], lastChange: string): Promise<void> {
  const orgId = auth.orgId
  const writer: Writer = {
    // No idempotency receipt: a revert is idempotent by itself, and runs in several transactions.
    auth: { ...auth, receipt: undefined },
    actor: { userId: auth.userId, clientId: auth.clientId ?? null, channel },
    operationId: revert.id,
    journal: deps.journal,
  }
  const original = revert.reverts!
  try {
    for (let from = revert.revert_done; from < steps.length; from += CHUNK_STEPS) {
      const chunk = steps.slice(from, from + CHUNK_STEPS)
      await recordChanges.inWriteTransaction(deps.db, writer, async (tx) => {
        const outcome = await recordWrites.applyRevertSteps(tx, chunk, {
          force: revert.revert_force,
          // Changes by anyone but the operation and this revert, after the operation's last change.
          changedSince: (_kind, ids) => changedByOthersSince(tx.trx, orgId, [original, revert.id], lastChange, ids),
        })
        await recordRevertProgress(tx.trx, orgId, revert.id, chunk.length, outcome.reverted, outcome.conflicts, new Date(deps.now().getTime() + LEASE_MS))
      })
    }
    await finishRevert(deps.db, orgId, revert.id, 'succeeded', deps.now())
  } catch (err) {
    deps.log.error({ err, operation: original, revert: revert.id }, 'reverting an operation failed')
    await finishRevert(deps.db, orgId, revert.id, 'failed', deps.now()).catch(() => {})
  }
}
