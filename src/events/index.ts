/**
 * The event journal: every event record changes produce, kept for EVENT_RETENTION_DAYS whether or
 * not a webhook subscribes. This folder owns the `events` table's readers (a record's history, the
 * record pages' timeline) and its pruning; the rows are written by the transactional outbox
 * (webhooks/outbox.ts) in the writing transaction, in the statement that queues the deliveries.
 */
export { pruneEvents } from './journal.repository.ts'
export { recordEventRoutes } from './record-events.routes.ts'
