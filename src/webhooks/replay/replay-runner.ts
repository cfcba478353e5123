/**
 * The background loop of replays in one process: steps (replay-step.ts) back to back while there is
 * work, then a nap of `pollMs` (cut short by wake()) before looking again, for replays asked for in
 * other processes or waiting for their deliveries to drain. Within a process steps run one at a
 * time; across processes the claim's SKIP LOCKED shares them.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { replayStep } from './replay-step.ts'

export interface ReplayRunner {
  /** Look for replay work now (a replay was just asked for in this process). */
  wake(): void
  stop(): Promise<void>
}

export function startReplayRunner(db: Kysely<DB>, opts: { pollMs: number; now: () => Date; onQueued: () => void; onError: (err: unknown) => void }): ReplayRunner {
  let stopped = false
  let woken = false
  let endNap: (() => void) | null = null
  const nap = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => endNap?.(), opts.pollMs)
      endNap = () => {
        clearTimeout(timer)
        endNap = null
        resolve()
      }
    })

  const loop = (async () => {
    while (!stopped) {
      try {
        for (let step = await replayStep(db, opts.now); !step.idle && !stopped; step = await replayStep(db, opts.now)) {
          if (step.queued > 0) opts.onQueued()
        }
      } catch (err) {
        opts.onError(err)
      }
      if (!woken && !stopped) await nap()
      woken = false
    }
  })()

  return {
    wake() {
      woken = true
      endNap?.()
    },
    async stop() {
      stopped = true
      endNap?.()
      await loop
    },
  }
}
