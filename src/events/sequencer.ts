/**
 * Numbers journal events per organization AFTER their transactions committed: the rule that makes
 * `GET /api/v1/events?after=<last seq seen>` lossless (docs/webhooks.md, The change feed).
 *
 * A number taken inside the writing transaction (a sequence, a counter) becomes visible when that
 * transaction commits, and transactions commit in any order: a reader that saw 7 may later find a 6
 * that committed late, and polling `seq > 7` skips it for ever. Here a writer stores its events
 * unnumbered; the sequencer, holding the organization's counter row lock, numbers every committed
 * unnumbered event of that organization in one statement and commits. Two numberings of one
 * organization never overlap (the lock) and the second starts after the first committed, so a
 * reader's snapshot always holds a gapless prefix 1..n: whatever it has not seen gets a number
 * above everything it has.
 */
import { CompiledQuery, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'

/** Events one numbering takes at most; the rest wait for the next round a moment later. */
const BATCH = 10_000

/** Organizations with unnumbered events (the partial index events_unsequenced_idx holds only them). */
async function pendingOrgs(db: Kysely<DB>): Promise<string[]> {
  const r = await db.executeQuery<{ org_id: string }>(CompiledQuery.raw('SELECT DISTINCT org_id FROM events WHERE seq IS NULL LIMIT 1000'))
  return r.rows.map((row) => row.org_id)
}

/**
 * Numbers one organization's committed unnumbered events in id order (UUIDv7: the time of each
 * change). Answers how many, or 0 when another process holds the organization's counter and is
 * numbering them right now.
 */
export async function sequenceOrg(db: Kysely<DB>, orgId: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw(`INSERT INTO org_counters (org_id, name, value) VALUES ($1, 'event_seq', 0) ON CONFLICT DO NOTHING`, [orgId]))
    const counter = await trx.executeQuery<{ value: string }>(
      CompiledQuery.raw(`SELECT value FROM org_counters WHERE org_id = $1 AND name = 'event_seq' FOR UPDATE SKIP LOCKED`, [orgId]),
    )
    if (counter.rows.length === 0) return 0
    // A statement of its own, after the lock: its snapshot includes everything the previous holder
    // of the lock numbered and committed, so no event is numbered twice.
    const numbered = await trx.executeQuery<{ n: string; top: string | null }>(
      CompiledQuery.raw(
        `WITH pending AS (
           SELECT id, row_number() OVER (ORDER BY id) AS rn FROM events WHERE org_id = $1 AND seq IS NULL ORDER BY id LIMIT ${BATCH}
         ), numbered AS (
           UPDATE events e SET seq = CAST($2 AS bigint) + p.rn FROM pending p WHERE e.org_id = $1 AND e.id = p.id RETURNING e.seq
         )
         SELECT count(*) AS n, max(seq) AS top FROM numbered`,
        [orgId, counter.rows[0].value],
      ),
    )
    const { n, top } = numbered.rows[0]
    if (top !== null) await trx.executeQuery(CompiledQuery.raw(`UPDATE org_counters SET value = $2 WHERE org_id = $1 AND name = 'event_seq'`, [orgId, top]))
    return Number(n)
  })
}

/** One round over every organization with unnumbered events; answers how many it numbered. */
export async function sequencePending(db: Kysely<DB>): Promise<number> {
  let total = 0
  for (const orgId of await pendingOrgs(db)) total += await sequenceOrg(db, orgId)
  return total
}

export interface Sequencer {
  /** Numbers soon: a local commit just wrote events. */
  wake(): void
  stop(): Promise<void>
}

/**
 * The loop of one process: a round when woken by a local commit, and every `pollMs` for events
 * other processes wrote. Rounds never overlap; a failed round is logged and retried.
 */
export function startSequencer(db: Kysely<DB>, opts: { pollMs: number; onError: (err: unknown) => void; onNumbered?: () => void }): Sequencer {
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> | null = null
  let again = false
  let stopped = false
  const schedule = (ms: number) => {
    if (stopped) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(round, ms).unref()
  }
  function round(): void {
    timer = null
    if (running) {
      again = true
      return
    }
    running = (async () => {
      try {
        do {
          again = false
          if ((await sequencePending(db)) > 0) opts.onNumbered?.()
        } while (again && !stopped)
      } catch (err) {
        opts.onError(err)
      } finally {
        running = null
        schedule(opts.pollMs)
      }
    })()
  }
  schedule(0)
  return {
    wake: () => (running ? (again = true) : schedule(0)),
    stop: async () => {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
