/**
 * When a client's tokens were last used: Settings -> API's "Last used". The bearer check tells
 * this recorder of every token it accepts, on both of its paths (the two-step check and the list
 * route's one statement, which share `accept`), REST and MCP alike. The list route is the hot path,
 * so a use is written at most once a minute per client per process: a small map remembers when
 * this process last wrote for each (organization, client). The write runs without the request
 * waiting for it, and a failure only costs the record of a use, so it is logged at debug.
 *
 * The map is a cache: losing it (a restart, or clearing it past CLIENT_USE_REMEMBERED entries)
 * costs one extra UPDATE per client. Each process's last write is at most a minute before its last
 * use, and the row only moves forward (client.repository.ts markClientUsed), so the time shown is
 * to the minute: at most a minute before the last use, never after it (docs/oauth.md).
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { markClientUsed } from './client.repository.ts'
import { CLIENT_USE_PRECISION_SECONDS, CLIENT_USE_REMEMBERED } from './oauth.defaults.ts'

const PRECISION_MS = CLIENT_USE_PRECISION_SECONDS * 1000

export interface ClientUses {
  /** A token of `clientId` was accepted at `at` for `orgId`; returns at once. */
  seen(orgId: string, clientId: string, at: Date): void
  /** Resolves once the writes started so far have ended (the app's close waits for it; tests too). */
  settled(): Promise<void>
}

export function clientUseRecorder(db: Kysely<DB>, log: FastifyBaseLogger): ClientUses {
  const lastWritten = new Map<string, number>()
  const pending = new Set<Promise<void>>()
  return {
    seen(orgId, clientId, at) {
      const key = `${orgId} ${clientId}`
      const time = at.getTime()
      const last = lastWritten.get(key)
      if (last !== undefined && time - last < PRECISION_MS) return
      if (lastWritten.size >= CLIENT_USE_REMEMBERED) lastWritten.clear()
      lastWritten.set(key, time)
      const write: Promise<void> = markClientUsed(db, orgId, clientId, at)
        .catch((err: unknown) => log.debug({ err, clientId }, 'could not record the use of an API client'))
        .finally(() => pending.delete(write))
      pending.add(write)
    },
    async settled() {
      await Promise.all(pending)
    },
  }
}
