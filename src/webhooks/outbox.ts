/**
 * The transactional outbox: inside the transaction of every record change, one delivery row per
 * event and subscribed active endpoint. The change and its deliveries commit or vanish together,
 * so a crash can never lose an event; the dispatcher sends them afterwards.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { recordChangeHooks, type RecordChangeHook } from '../records/index.ts'
import { uuidv7 } from '../shared/ids.ts'
import { envelope, eventBodies, eventsForChange } from './webhook-events.ts'

/**
 * The channel API actions (test event, manual retry) wake every process's dispatcher on. The outbox
 * does not NOTIFY: that takes a database-wide lock at every commit; record writes wake this
 * process's dispatcher after their commit, and other processes find the rows at their next poll.
 */
export const DELIVERIES_CHANNEL = 'cairn_webhook_deliveries'

/** True when at least one delivery was queued. */
export async function enqueueEvent(trx: Kysely<DB>, orgId: string, type: string, eventId: string, bodies: { body: string; redactedBody: string }, at: Date): Promise<boolean> {
  // One statement whatever the number of endpoints.
  const r = await sql<{ n: number }>`
    WITH inserted AS (
      INSERT INTO webhook_deliveries (org_id, id, webhook_id, event_id, event_type, body, status, next_attempt_at, created_at, updated_at)
      SELECT w.org_id, cairn_uuidv7(${at}), w.id, ${eventId}, ${type},
             CASE WHEN w.include_amounts THEN ${bodies.body} ELSE ${bodies.redactedBody} END,
             'pending', ${at}, ${at}, ${at}
      FROM webhooks w
      WHERE w.org_id = ${orgId} AND w.status = 'active' AND ${type} = ANY (w.events)
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM inserted
  `.execute(trx)
  return r.rows[0].n > 0
}

export const outboxHook: RecordChangeHook = async (trx, auth, action, change) => {
  const at = new Date()
  let queued = false
  for (const event of eventsForChange(action, change)) {
    const id = uuidv7(at)
    const bodies = eventBodies(envelope(id, event.type, at, auth.orgId, event.object, event.previous))
    if (await enqueueEvent(trx, auth.orgId, event.type, id, bodies, at)) queued = true
  }
  return queued
}

/** Idempotent: several apps in one process (tests) share the one hook list. */
export function installOutbox(): void {
  if (!recordChangeHooks.includes(outboxHook)) recordChangeHooks.push(outboxHook)
}
