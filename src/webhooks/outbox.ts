/**
 * The transactional outbox of webhooks: a subscriber of the change journal (src/events). In the
 * statement that journals a change's events, each event gets one delivery row per subscribed active
 * endpoint (carrying the record's id when the endpoint asked for order per record; filters are
 * judged later, when a delivery is about to be sent). The change, its events and its deliveries
 * commit or vanish together, so a crash can never lose an event; the dispatcher sends them
 * afterwards, woken by the journal when there is news.
 */
import { sql } from 'kysely'
import type { JournalFragment } from '../events/index.ts'

/**
 * The channel API actions (test event, manual retry) wake every process's dispatcher on. The outbox
 * does not NOTIFY: that takes a database-wide lock at every commit; record writes wake this
 * process's dispatcher after their commit, and other processes find the rows at their next poll.
 */
export const DELIVERIES_CHANNEL = 'cairn_webhook_deliveries'

/** The deliveries of the events being journaled (the CTE `e`), one per matching active endpoint. */
export const deliveriesOfEvents: JournalFragment = (orgId, at) => sql`
  INSERT INTO webhook_deliveries (org_id, id, webhook_id, event_id, event_type, body, status, next_attempt_at, created_at, updated_at, record_id)
  SELECT w.org_id, cairn_uuidv7(${at}), w.id, CAST(e.id AS uuid), e.type,
         CASE WHEN w.include_amounts THEN e.body ELSE coalesce(e.redacted, e.body) END,
         'pending', ${at}, ${at}, ${at},
         CASE WHEN w.ordering = 'per_record' THEN CAST(e.record_id AS uuid) END
  FROM e JOIN webhooks w ON w.org_id = ${orgId} AND w.status = 'active' AND e.type = ANY (w.events)`
