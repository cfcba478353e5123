/**
 * Background upkeep of a service process: `run` first `firstAfterMs` after the app is ready, then
 * every `everyMs` after the previous run ended (runs never overlap), until the app closes. Timers are
 * unref'd, so they never keep a process alive.
 */
import type { FastifyInstance } from 'fastify'

export function runPeriodically(app: FastifyInstance, firstAfterMs: number, everyMs: number, run: () => Promise<void>): void {
  let timer: NodeJS.Timeout | null = null
  let closed = false
  app.addHook('onReady', async () => {
    timer = setTimeout(function tick() {
      void run().finally(() => {
        // A run still in flight when the app closed must not schedule another against a closed database.
        if (!closed) timer = setTimeout(tick, everyMs).unref()
      })
    }, firstAfterMs).unref()
  })
  app.addHook('onClose', async () => {
    closed = true
    if (timer) clearTimeout(timer)
  })
}
