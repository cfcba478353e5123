/**
 * Asking for a replay (docs/webhooks.md, Replay): `since` as a seq or an RFC 3339 time becomes a
 * range of the journal, from there through the newest seq at this moment; events committed but not
 * yet numbered are left to their live deliveries.
 */
import { writeTransaction } from '../../db/write-transaction.ts'
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { feedPage, firstSeqSince } from '../../events/index.ts'
import type { AuthContext } from '../../shared/auth-context.ts'
import { Conflict, NotFound, ProblemError, ValidationFailed } from '../../shared/errors.ts'
import { uuidv7 } from '../../shared/ids.ts'
import { findWebhook } from '../webhook.repository.ts'
import { findReplay, insertReplay, type ReplayView } from './replay.repository.ts'

export class ReplayExpired extends ProblemError {
  constructor(since: string, oldest: number) {
    super(410, 'events_expired', 'Events expired', `Events since ${since} have passed the retention period (EVENT_RETENTION_DAYS). The oldest event still held is seq ${oldest}; replay since that seq instead.`)
    this.extensions = { oldest_seq: oldest }
  }
}

export class ReplayInProgress extends ProblemError {
  constructor() {
    super(409, 'replay_in_progress', 'Replay in progress', 'This webhook is already replaying events; wait until its replay has queued everything (GET /webhooks/{id} shows its progress).')
  }
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i

/** `since` as the API accepts it: an integer seq (also as a string of digits) or an RFC 3339 time. */
export function parseSince(since: number | string): { seq: number } | { time: Date } {
  if (typeof since === 'number') return { seq: since }
  const text = since.trim()
  if (/^\d{1,15}$/.test(text)) return { seq: Number(text) }
  if (RFC3339.test(text) && !Number.isNaN(Date.parse(text))) return { time: new Date(text) }
  throw new ValidationFailed('since must be an event seq (an integer) or an RFC 3339 time such as 2026-11-20T09:00:00Z.', [{ field: 'since', message: 'must be a seq or an RFC 3339 time' }])
}

export async function startReplay(db: Kysely<DB>, auth: AuthContext, webhookId: string, since: number | string, now: Date): Promise<ReplayView> {
  const webhook = await findWebhook(db, auth.orgId, webhookId)
  if (!webhook) throw new NotFound('Webhook')
  if (webhook.status !== 'active') throw new Conflict('The webhook is disabled; enable it before replaying events to it.')
  const asked = parseSince(since)
  const marks = await feedPage(db, auth.orgId, { after: null }, 1, null)
  const oldestHeld = marks.rows[0]
  let fromSeq: number
  if ('seq' in asked) {
    if (asked.seq < 1) throw new ValidationFailed('since must be a seq of 1 or more (seqs start at 1).', [{ field: 'since', message: 'must be at least 1' }])
    if (asked.seq <= marks.pruned) throw new ReplayExpired(`seq ${asked.seq}`, marks.pruned + 1)
    if (asked.seq > marks.newest) throw new ValidationFailed(`since=${asked.seq} is beyond the newest event (seq ${marks.newest}).`, [{ field: 'since', message: `must be at most ${marks.newest}` }])
    fromSeq = asked.seq
  } else {
    if (asked.time.getTime() > now.getTime()) throw new ValidationFailed('since is in the future.', [{ field: 'since', message: 'must not be in the future' }])
    // Pruning removed events: a time before the oldest event held may have lost some.
    const oldestAt = oldestHeld ? Date.parse((JSON.parse(oldestHeld.body) as { timestamp: string }).timestamp) : now.getTime()
    if (marks.pruned > 0 && asked.time.getTime() < oldestAt) throw new ReplayExpired(asked.time.toISOString(), marks.pruned + 1)
    fromSeq = (await firstSeqSince(db, auth.orgId, asked.time)) ?? marks.newest + 1
  }
  // One outcome for a keyed retry to get back: the replay's id (null: another replay runs).
  const id = await writeTransaction(db, auth.receipt, async (trx) => {
    const replayId = uuidv7(now)
    const inserted = await insertReplay(trx, auth.orgId, {
      id: replayId,
      webhookId,
      sinceSeq: 'seq' in asked ? asked.seq : null,
      sinceTime: 'time' in asked ? asked.time : null,
      fromSeq,
      throughSeq: marks.newest,
      createdBy: auth.userId,
      at: now,
    })
    return inserted ? replayId : null
  })
  if (!id) throw new ReplayInProgress()
  return (await findReplay(db, auth.orgId, id))!
}
