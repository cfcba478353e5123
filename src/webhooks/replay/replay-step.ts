/**
 * One step of a replay: in one transaction, claim a running replay (SKIP LOCKED: any number of
 * processes share the work), read its next chunk of the journal in seq order, keep the events its
 * endpoint subscribes to, that occurred since its time and that its filter accepts, queue their
 * deliveries (bodies redacted as the outbox redacts them) and store the new position. A crash
 * before the commit leaves the position where it was, so the chunk is done again, never twice.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { feedPage } from '../../events/index.ts'
import { filterAccepts } from '../filter/filter-match.ts'
import { eventBodies, type EventEnvelope } from '../../events/index.ts'
import { cancelRunningReplay, claimRunningReplay, queueReplayChunk, type ClaimedReplay, type ReplayDelivery } from './replay.repository.ts'

/** Journal events read per step. */
export const REPLAY_CHUNK = 500
/** A replay waits while this many of its deliveries are still to be sent. */
export const REPLAY_MAX_PENDING = 1000

/** What a step did: nothing to do, or how many deliveries it queued. */
export type StepResult = { idle: true } | { idle: false; queued: number }

export async function replayStep(db: Kysely<DB>, now: () => Date): Promise<StepResult> {
  return db.transaction().execute(async (trx) => {
    const replay = await claimRunningReplay(trx, REPLAY_MAX_PENDING)
    if (!replay) return { idle: true }
    const at = now()
    if (replay.webhook_status !== 'active') {
      await cancelRunningReplay(trx, replay.org_id, replay.webhook_id, 'The endpoint was disabled.', at)
      return { idle: false, queued: 0 }
    }
    const position = Number(replay.position)
    const through = Number(replay.through_seq)
    const page = await feedPage(trx, replay.org_id, { after: position }, REPLAY_CHUNK, replay.events)
    if (position < page.pruned) {
      await cancelRunningReplay(trx, replay.org_id, replay.webhook_id, `Events up to seq ${page.pruned} passed the retention period before they were replayed.`, at)
      return { idle: false, queued: 0 }
    }
    const rows = page.rows.filter((row) => row.seq <= through)
    // A short page read everything up to the organization's newest event, hence up to `through`.
    const reached = page.rows.length < REPLAY_CHUNK || rows.length < page.rows.length ? through : rows[rows.length - 1].seq
    const deliveries = rows.flatMap((row) => deliveryOf(replay, row.body))
    await queueReplayChunk(trx, replay, deliveries, reached, reached - Number(replay.from_seq) + 1, at)
    return { idle: false, queued: deliveries.length }
  })
}

/** The delivery of one journal event, or none when the replay's time or the filter leaves it out. */
function deliveryOf(replay: ClaimedReplay, journalBody: string): ReplayDelivery[] {
  const event = JSON.parse(journalBody) as EventEnvelope
  if (replay.since_time && Date.parse(event.timestamp) < new Date(replay.since_time).getTime()) return []
  const body = replay.include_amounts ? journalBody : eventBodies(event).redactedBody
  if (replay.filter && !filterAccepts(replay.filter, replay.include_amounts ? event : (JSON.parse(body) as EventEnvelope))) return []
  const recordId = replay.ordering === 'per_record' ? String(event.data.object.id) : null
  return [{ eventId: event.id, type: event.type, recordId, body }]
}
