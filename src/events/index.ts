/**
 * The event journal and change feed: every event record changes produce, kept for
 * EVENT_RETENTION_DAYS whether or not a webhook subscribes, numbered per organization after commit
 * (sequencer), read as a feed (GET /events, /events/stream) and as a record's history
 * (GET /{kind}/{id}/events). The rows are written by the transactional outbox (webhooks/outbox.ts)
 * in the writing transaction, in the statement that queues the deliveries.
 */
import fp from 'fastify-plugin'
import { CompiledQuery } from 'kysely'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { committedChangeListeners } from '../records/index.ts'
import { FeedWakeups } from './feed-wakeups.ts'
import { feedRoutes } from './feed.routes.ts'
import { recordEventRoutes } from './record-events.routes.ts'
import { eventTypeRoutes } from './event-types.routes.ts'
import { startSequencer, type Sequencer } from './sequencer.ts'

export { feedPage, firstSeqSince, pruneEvents, type FeedRead } from './journal.repository.ts'
export { sequencePending } from './sequencer.ts'

/**
 * Called in this process after its sequencer numbered events: the webhook dispatcher wakes, since
 * thin deliveries (which carry the seq) wait for their number.
 */
export const numberedListeners = new Set<() => void>()

/**
 * Called in this process when another process (one that serves requests only, SERVICE_ROLE=web)
 * committed changes that queued work: the webhook dispatcher wakes, as on a local commit.
 */
export const committedElsewhereListeners = new Set<() => void>()

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

/** The sequencer (unless this process only serves HTTP) and the wake-ups of this process's streams. */
export const eventsPlugin = fp(
  async (app) => {
    const wakeups = new FeedWakeups()
    app.decorate('eventFeedWakeups', wakeups)
    app.addHook('preClose', async () => wakeups.close())
    if (app.config.role === 'web') {
      if (app.database.kind !== 'postgres') return
      const notify = committedNotifier(() => app.database.db.executeQuery(CompiledQuery.raw(`SELECT pg_notify('${COMMITTED_CHANNEL}', '')`)).then(() => {}), app.log)
      committedChangeListeners.add(notify)
      app.addHook('onClose', async () => {
        committedChangeListeners.delete(notify)
      })
      return
    }
    let sequencer: Sequencer | null = null
    let unlisten: (() => Promise<void>) | null = null
    const wake = () => sequencer?.wake()
    const wakeFromElsewhere = () => {
      sequencer?.wake()
      for (const listener of committedElsewhereListeners) listener()
    }
    app.addHook('onReady', async () => {
      unlisten = await app.database.listen(COMMITTED_CHANNEL, wakeFromElsewhere)
      sequencer = startSequencer(app.db, {
        pollMs: SEQUENCER_POLL_MS,
        onError: (err) => app.log.warn({ err }, 'numbering journal events failed; retrying'),
        onNumbered: () => {
          wakeups.wakeAll()
          for (const listener of numberedListeners) listener()
        },
      })
      committedChangeListeners.add(wake)
    })
    app.addHook('onClose', async () => {
      committedChangeListeners.delete(wake)
      await unlisten?.()
      await sequencer?.stop()
    })
  },
  { name: 'events', dependencies: ['database'] },
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

/** The routes under /api/v1: the feed and record histories. */
export async function eventRoutes(api: FastifyInstance): Promise<void> {
  await api.register(feedRoutes, { wakeups: api.eventFeedWakeups })
  await api.register(recordEventRoutes)
  await api.register(eventTypeRoutes)
}
