/**
 * Pieces of the dispatcher's plumbing (docs/webhooks.md, Scheduling): the notification an API-only
 * process sends after its commits (at most one under way, commits meanwhile share the next one), and
 * the dispatcher's own connections, which commit without waiting for the WAL flush.
 */
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { committedNotifier } from '../../src/events/index.ts'
import { openPostgres } from '../../src/db/connect.ts'
import { openDispatcherDatabase } from '../../src/webhooks/dispatcher-database.ts'
import { isPostgresReachable, testDatabaseUrl } from '../helpers/databases.ts'

const silent = { warn: () => {} } as never

describe('the notification after commits of an API-only process', () => {
  it('sends one at a time and one more for the commits made meanwhile', async () => {
    const sent: Array<() => void> = []
    const notify = committedNotifier(() => new Promise<void>((done) => sent.push(done)), silent)
    notify()
    notify()
    notify()
    expect(sent).toHaveLength(1)
    sent[0]()
    await new Promise((r) => setTimeout(r, 20))
    expect(sent).toHaveLength(2) // the two commits during the first share the second
    sent[1]()
    await new Promise((r) => setTimeout(r, 20))
    expect(sent).toHaveLength(2)
    notify()
    expect(sent).toHaveLength(3)
  })

  it('goes on after a failed notification', async () => {
    let calls = 0
    const notify = committedNotifier(() => (++calls === 1 ? Promise.reject(new Error('down')) : Promise.resolve()), silent)
    notify()
    await new Promise((r) => setTimeout(r, 10))
    notify()
    expect(calls).toBe(2)
  })
})

describe.runIf(await isPostgresReachable())('the dispatcher database', () => {
  it('commits without waiting for the WAL flush, on its own connections only', async () => {
    const database = await openPostgres(testDatabaseUrl)
    const own = await openDispatcherDatabase(database)
    try {
      const mine = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(own.db)
      expect(mine.rows[0].synchronous_commit).toBe('off')
      const api = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(database.db)
      expect(api.rows[0].synchronous_commit).toBe('on')
    } finally {
      await own.close()
      await database.close()
    }
  })
})
