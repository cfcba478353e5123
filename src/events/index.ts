/**
 * The event journal and change feed: the event catalogue and how a record change becomes events
 * (change-events.ts), the journal every record write writes through (change-journal.ts, the
 * ChangeJournal port of records, wired in app.ts), kept for EVENT_RETENTION_DAYS whether or not
 * anyone subscribes, numbered per organization after commit (sequencer), read as a feed
 * (GET /events, /events/stream) and as a record's events (GET /{kind}/{id}/events). Subscribers
 * (webhooks) add their rows to the journal's statement and are woken when there is news. The
 * journal also writes each change's record history and its operation (history/: kept
 * HISTORY_RETENTION_DAYS, read by GET /{kind}/{id}/history and /operations, and undone by
 * POST /operations/{id}/revert).
 */
import { pruneEvents } from './journal.repository.ts'
import fp from 'fastify-plugin'
import { CompiledQuery } from 'kysely'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { EventJournal } from './change-journal.ts'
import { FeedWakeups } from './feed-wakeups.ts'
import { feedRoutes } from './feed.routes.ts'
import { recordEventRoutes } from './record-events.routes.ts'
import { eventTypeRoutes } from './event-types.routes.ts'
import { startSequencer, type Sequencer } from './sequencer.ts'
import { historyRoutes } from './history/history.routes.ts'
import { operationRoutes } from './history/operations.routes.ts'
import { pruneHistory } from './history/history.repository.ts'

export { feedPage, firstSeqSince, pruneEvents, type FeedRead } from './journal.repository.ts'
export { sequencePending } from './sequencer.ts'
export { EventJournal, type JournalSubscriber } from './change-journal.ts'
export type { JournalFragment } from './journal-writer.ts'
export { EVENT_CATALOGUE, EVENT_NAMES, TEST_EVENT, type EventEntity } from './event-catalogue.ts'
export { envelope, eventBodies, isEntity, testEventEnvelope, type EventActor, type EventEnvelope } from './change-events.ts'

/**
 * The channel a process that does no background work (SERVICE_ROLE=web) notifies after its commits
 * that queued work, so the processes that number events and send deliveries start at once instead
 * of at their next poll. One notification at a time per process, never in the writing transaction
 * (NOTIFY takes a database-wide lock at commit): after a commit, a notification is sent unless one
 * is under way, in which case one more follows it. Polls stay: a lost notification only delays.
 */
export const COMMITTED_CHANNEL = 'cairn_events_committed'

/** How often a process looks for events other processes wrote and nobody numbered yet. */
const SEQUENCER_POLL_MS = 100

declare module 'fastify' {
  interface FastifyInstance {
    eventFeedWakeups: FeedWakeups
  }
}

/**
 * Who numbers what this process journals: its own sequencer (unless it only serves HTTP, when it
 * notifies the processes that do), and the wake-ups of this process's feed streams.
 */
export const eventsPlugin = fp(
  async (app, opts: { journal: EventJournal }) => {
    const { journal } = opts
    app.housekeeping.add('event journal', (now) => pruneEvents(app.db, now, app.config.eventRetentionDays))
    app.housekeeping.add('record history', (now) => pruneHistory(app.db, now, app.config.historyRetentionDays))
    const wakeups = new FeedWakeups()
    app.decorate('eventFeedWakeups', wakeups)
    app.addHook('preClose', async () => wakeups.close())
    if (app.config.role === 'web') {
      if (app.database.kind !== 'postgres') return
      journal.setCommitHandler(committedNotifier(() => app.database.db.executeQuery(CompiledQuery.raw(`SELECT pg_notify('${COMMITTED_CHANNEL}', '')`)).then(() => {}), app.log))
      app.addHook('onClose', async () => journal.setCommitHandler(null))
      return
    }
    let sequencer: Sequencer | null = null
    let unlisten: (() => Promise<void>) | null = null
    app.addHook('onReady', async () => {
      // Another process's commit: number its events here too, and let subscribers look for work.
      unlisten = await app.database.listen(COMMITTED_CHANNEL, () => {
        sequencer?.wake()
        journal.wakeSubscribers()
      })
      sequencer = startSequencer(app.db, {
        pollMs: SEQUENCER_POLL_MS,
        onError: (err) => app.log.warn({ err }, 'numbering journal events failed; retrying'),
        onNumbered: () => {
          wakeups.wakeAll()
          journal.wakeSubscribers()
        },
      })
      journal.setCommitHandler(() => sequencer?.wake())
    })
    app.addHook('onClose', async () => {
      journal.setCommitHandler(null)
      await unlisten?.()
      await sequencer?.stop()
    })
  },
  { name: 'events', dependencies: ['database', 'housekeeping'] },
)

const NOTIFY_SPACING_MS = 2

/** At most one notification under way; commits during it ask for one more after it. */
export function committedNotifier(send: () => Promise<void>, log: FastifyBaseLogger): () => void {
  let sending = false
  let again = false
  const run = (): void => {
    sending = true
    again = false
    send()
      .catch((err) => log.warn({ err }, 'notifying other processes of committed changes failed; they will find them at their next poll'))
      .finally(() => {
        sending = false
        // Commits during this one get theirs a moment later (one wakes the others for all of them).
        if (again) setTimeout(() => !sending && run(), NOTIFY_SPACING_MS).unref()
      })
  }
  return () => {
    if (sending) again = true
    else run()
  }
}

/** The routes under /api/v1: the feed, record events and histories, operations and their reverts. */
export async function eventRoutes(api: FastifyInstance, opts: { now: () => Date }): Promise<void> {
  await api.register(feedRoutes, { wakeups: api.eventFeedWakeups })
  await api.register(recordEventRoutes)
  await api.register(eventTypeRoutes)
  await api.register(historyRoutes)
  await api.register(operationRoutes, { now: opts.now })
}

// History, operations and undo, for the MCP tools (the REST routes are above).
export { recordHistory, listOperations } from './history/history.service.ts'
export { revertOperation } from './history/revert.ts'
export { revertStatusOf } from './history/history-view.ts'
export { historyPageSchema, operationPageSchema, revertStatusSchema } from './history/history.schemas.ts'
