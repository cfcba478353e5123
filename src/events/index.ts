/**
 * The event journal and change feed: every event record changes produce, kept for
 * EVENT_RETENTION_DAYS whether or not a webhook subscribes, numbered per organization after commit
 * (sequencer), read as a feed (GET /events, /events/stream) and as a record's history
 * (GET /{kind}/{id}/events). The rows are written by the transactional outbox (webhooks/outbox.ts)
 * in the writing transaction, in the statement that queues the deliveries.
 */
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
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
    if (app.config.role === 'web') return
    let sequencer: Sequencer | null = null
    const wake = () => sequencer?.wake()
    app.addHook('onReady', async () => {
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
      await sequencer?.stop()
    })
  },
  { name: 'events', dependencies: ['database'] },
)

/** The routes under /api/v1: the feed and record histories. */
export async function eventRoutes(api: FastifyInstance): Promise<void> {
  await api.register(feedRoutes, { wakeups: api.eventFeedWakeups })
  await api.register(recordEventRoutes)
  await api.register(eventTypeRoutes)
}
