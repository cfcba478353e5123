/**
 * Webhooks: signed, retried, at-least-once change notifications.
 * This folder owns the transactional outbox (a subscriber of the change journal of src/events: the
 * deliveries are written with the events), the endpoints and their API (webhook.*), the delivery queue and log
 * (delivery.repository), the background sender (dispatcher) with its retry policy and signing,
 * filters on the record (filter/), and replays of the event journal to an endpoint (replay/).
 */
import { pruneDeliveries } from './delivery.repository.ts'
import fp from 'fastify-plugin'
import type { Clock } from '../shared/clock.ts'
import type { EventJournal } from '../events/index.ts'
import { startDispatcher, type Dispatcher } from './dispatcher.ts'
import { openDispatcherDatabase, type DispatcherDatabase } from './dispatcher-database.ts'
import { deliveriesOfEvents, DELIVERIES_CHANNEL } from './outbox.ts'
import { startReplayRunner, type ReplayRunner } from './replay/replay-runner.ts'

/** How often a process looks for replay work asked for elsewhere (or waiting for its queue to drain). */
const REPLAY_POLL_MS = 500

export { webhookRoutes } from './webhook.routes.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Null in processes that do no background work (SERVICE_ROLE=web). */
    webhookDispatcher: Dispatcher | null
    /** Null in processes that do no background work (SERVICE_ROLE=web). */
    webhookReplays: ReplayRunner | null
  }
}

/**
 * The outbox (a subscriber of the change journal: deliveries are written with the events) and,
 * unless this process only serves HTTP, the dispatcher, which the journal wakes when there is news.
 */
/** How long the delivery log keeps a finished delivery. */
const DELIVERY_LOG_DAYS = 30

export const webhooksPlugin = fp(
  async (app, opts: { clock: Clock; journal: EventJournal }) => {
    const unsubscribeOutbox = opts.journal.subscribe({ alongside: deliveriesOfEvents })
    // The delivery log of deliveries finished more than DELIVERY_LOG_DAYS ago.
    app.housekeeping.add('webhook deliveries', (now) => pruneDeliveries(app.db, new Date(now.getTime() - DELIVERY_LOG_DAYS * 86400 * 1000)))
    app.addHook('onClose', async () => unsubscribeOutbox())
    app.decorate('webhookDispatcher', null)
    app.decorate('webhookReplays', null)
    if (app.config.role === 'web') return
    let unlisten: (() => Promise<void>) | null = null
    let unsubscribeWake: (() => void) | null = null
    let dispatcherDb: DispatcherDatabase | null = null
    const wake = () => app.webhookDispatcher?.wake()
    // A process that serves requests as well lets them go first when it is saturated (dispatcher.ts).
    let requestsServed = 0
    if (app.config.role !== 'worker') app.addHook('onRequest', (_req, _reply, done) => {
      requestsServed++
      done()
    })
    app.addHook('onReady', async () => {
      dispatcherDb = await openDispatcherDatabase(app.database)
      const dispatcher = startDispatcher({
        db: dispatcherDb.db,
        box: app.secretBox,
        clock: opts.clock,
        allowPrivate: app.config.allowPrivateOutbound,
        concurrency: app.config.webhookConcurrency,
        log: app.log.child({ component: 'webhooks' }),
        requestsServed: app.config.role === 'worker' ? undefined : () => requestsServed,
      })
      app.webhookDispatcher = dispatcher
      app.webhookReplays = startReplayRunner(app.db, {
        pollMs: REPLAY_POLL_MS,
        now: () => opts.clock.now(),
        onQueued: wake,
        onError: (err) => app.log.warn({ err }, 'a webhook replay step failed; retrying'),
      })
      unsubscribeWake = opts.journal.subscribe({ wake })
      unlisten = await app.database.listen(DELIVERIES_CHANNEL, wake)
    })
    app.addHook('onClose', async () => {
      unsubscribeWake?.()
      await unlisten?.()
      await app.webhookReplays?.stop()
      await app.webhookDispatcher?.stop()
      await dispatcherDb?.close()
    })
  },
  { name: 'webhooks', dependencies: ['database', 'housekeeping'] },
)
