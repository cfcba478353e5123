/**
 * Numbers journal events per organization so that `GET /api/v1/events?after=<last seq seen>` is
 * lossless (docs/webhooks.md, The change feed).
 *
 * A number taken inside the writing transaction WITHOUT a lock (a sequence, a counter read) becomes
 * visible when that transaction commits, and transactions commit in any order: a reader that saw 7
 * may later find a 6 that committed late, and polling `seq > 7` skips it for ever. The rule that
 * prevents it: numbers are assigned only by a transaction holding the organization's counter row
 * lock (org_counters, 'event_seq'), which reads the counter after acquiring the lock and commits its
 * numbers and the new counter together. Two numberings of one organization never overlap (the lock)
 * and the second starts after the first committed, so a reader's snapshot always holds a gapless
 * prefix 1..n: whatever it has not seen gets a number above everything it has.
 *
 * Two kinds of transaction follow the rule:
 * - Single-record writes store their events unnumbered and never wait for the lock; the sequencer
 *   here, holding the lock (SKIP LOCKED: it never waits either), numbers every committed unnumbered
 *   event of the organization in one statement and commits.
 * - Bulk writes (a batch, an import page of up to 1,000 rows) take the lock themselves, waiting, as
 *   the last thing before their journal insert (lockEventCounter), then in one statement number the
 *   committed unnumbered events first and insert their own events already numbered after them
 *   (webhooks/outbox.ts): no later UPDATE of ~1,000 wide rows whose indexed `seq` makes every such
 *   update a full new row version. Numbering the pending ones first keeps one record's events in
 *   order: a single write to a record committed before the bulk write locked it.
 *
 * Deadlock freedom: the sequencer never waits on the counter, and while holding it touches only
 * committed unnumbered events, which no writer locks (writers only insert). A bulk write takes the
 * counter after every record lock it needs, and holding it writes only rows nobody else can hold
 * (its own new events and deliveries, its import's progress row), so no cycle passes through the
 * counter. An import's pages commit in file order and wait for the page ahead in the service, where
 * PostgreSQL cannot see the wait: a page takes the lock only after the page ahead committed
 * (WriteOptions.numberEvents.after).
 */
import { CompiledQuery, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'

/**
 * Takes the organization's journal counter lock for the rest of the transaction, waiting for its
 * holder, and answers the counter as the lock found it. A bulk write calls it last before its
 * journal insert, and that insert must be a statement of its own after this one: its snapshot then
 * includes everything the previous holder numbered and committed.
 */
export async function lockEventCounter(trx: Kysely<DB>, orgId: string): Promise<number> {
  const select = CompiledQuery.raw(`SELECT value FROM org_counters WHERE org_id = $1 AND name = 'event_seq' FOR UPDATE`, [orgId])
  let counter = await trx.executeQuery<{ value: string }>(select)
  if (counter.rows.length === 0) {
    // The organization's first numbering: the row appears once, whoever writes it.
    await trx.executeQuery(CompiledQuery.raw(`INSERT INTO org_counters (org_id, name, value) VALUES ($1, 'event_seq', 0) ON CONFLICT DO NOTHING`, [orgId]))
    counter = await trx.executeQuery<{ value: string }>(select)
  }
  return Number(counter.rows[0].value)
}

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
async function sequenceRound(db: Kysely<DB>): Promise<number> {
  let total = 0
  for (const orgId of await pendingOrgs(db)) total += await sequenceOrg(db, orgId)
  return total
}

/**
 * Numbers every event committed so far, waiting out a numbering another holder of a counter (a
 * process's loop) has under way: when it returns, nothing committed before the call is unnumbered.
 * For tools and tests; the loop below never waits.
 */
export async function sequencePending(db: Kysely<DB>): Promise<number> {
  let total = 0
  for (let round = 0; round < 500; round++) {
    total += await sequenceRound(db)
    if ((await pendingOrgs(db)).length === 0) return total
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('events stayed unnumbered for 5 s: a numbering transaction is stuck')
}

export interface Sequencer {
  /** Numbers soon: a local commit just wrote events. */
  wake(): void
  stop(): Promise<void>
}

/**
 * The loop of one process: a round when woken by a local commit, and every `pollMs` for events
 * other processes wrote. Rounds never overlap; a failed round is logged and retried. A round woken
 * by a commit reports `onNumbered` even when it numbered nothing: the commit may have been a bulk
 * write that numbered its own events.
 */
export function startSequencer(db: Kysely<DB>, opts: { pollMs: number; onError: (err: unknown) => void; onNumbered?: () => void }): Sequencer {
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> | null = null
  let again = false
  let stopped = false
  let woken = false
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
          // A local commit may have numbered its own events (a bulk write): its waiters wake too.
          const local = woken
          woken = false
          if ((await sequenceRound(db)) > 0 || local) opts.onNumbered?.()
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
    wake: () => {
      woken = true
      if (running) again = true
      else schedule(0)
    },
    stop: async () => {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
