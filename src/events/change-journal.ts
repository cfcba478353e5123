/**
 * The change journal: what records' writes call (the ChangeJournal port of
 * records/write-context.ts). The app creates one (app.ts) and hands it to records' doors, to the
 * events plugin (which numbers what it journals) and to the capabilities that subscribe.
 *
 *   in the writing transaction: record() turns record changes into events (change-events.ts) and
 *     writes them to the journal with their author, with each subscriber's rows in the same
 *     statement (journal-writer.ts);
 *   after the commit: committed() wakes this process's sequencer (or, in a process that serves
 *     requests only, notifies the others) and the subscribers;
 *   after numbering, and when another process announced a commit: the subscribers again.
 *
 * The journal is complete whether or not anyone subscribes. Each change also goes to the record's
 * history and its operation (history/history-writer.ts), for every kind, kept longer.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { ChangeJournal, RecordAction, RecordChange, WriteOptions, Writer } from '../records/index.ts'
import { uuidv7 } from '../shared/ids.ts'
import { authorOf, createdEventBodies, envelope, eventBodies, eventsForChange } from './change-events.ts'
import { journalEvents, type JournaledEvent, type JournalFragment } from './journal-writer.ts'
import { lockEventCounter } from './sequencer.ts'
import { writeHistory } from './history/history-writer.ts'

/** A capability that acts on journaled events: in the journal's statement, and when there is news. */
export interface JournalSubscriber {
  /** Rows derived from the events, written in the same statement (journal-writer.ts JournalFragment). */
  alongside?: JournalFragment
  /** Events were committed (here or in another process) or numbered: look for new work. */
  wake?: () => void
}

export class EventJournal implements ChangeJournal {
  readonly #subscribers = new Set<JournalSubscriber>()
  /** Told after a local commit: the sequencer, or the notifier of a process that serves requests only. */
  #onCommitted: (() => void) | null = null

  subscribe(subscriber: JournalSubscriber): () => void {
    this.#subscribers.add(subscriber)
    return () => this.#subscribers.delete(subscriber)
  }

  /** The events plugin says who numbers what this process commits. */
  setCommitHandler(handler: (() => void) | null): void {
    this.#onCommitted = handler
  }

  async record(trx: Kysely<DB>, writer: Writer, action: RecordAction, changes: readonly RecordChange[], options: WriteOptions): Promise<boolean> {
    const orgId = writer.auth.orgId
    const at = new Date()
    const author = authorOf(writer)
    const events: JournaledEvent[] = []
    for (const change of changes) {
      if (action === 'created' && change.afterText !== undefined) {
        // A bulk create: the body is spliced from the record's JSON text (change-events.ts).
        const id = uuidv7(at)
        const created = createdEventBodies(id, at, orgId, change, author)
        if (created) {
          events.push({ id, recordId: change.id, ...created })
          continue
        }
      }
      for (const event of eventsForChange(action, change)) {
        const id = uuidv7(at)
        events.push({ id, type: event.type, recordId: String(event.object.id), ...eventBodies(envelope(id, event.type, at, orgId, event.object, event.previous, author, event.more)) })
      }
    }
    // A bulk page waits for the page ahead of it before writing anything the next page would wait
    // for (the operation's row, then the counter): two pages never wait on each other.
    await options.numberEvents?.after
    // History for every kind: it outlives the feed's events and covers kinds they do not.
    const historied = await writeHistory(trx, orgId, author, action, changes, at)
    if (events.length === 0) return historied
    const fragments = [...this.#subscribers].flatMap((s) => (s.alongside ? [s.alongside] : []))
    if (!options.numberEvents) {
      await journalEvents(trx, orgId, author, events, at, fragments)
      return true
    }
    const counter = await lockEventCounter(trx, orgId)
    // Numbered already: after the commit the sequencer's wake-up still tells feed streams and
    // subscribers (thin webhook deliveries wait for their number), though it finds nothing to number.
    await journalEvents(trx, orgId, author, events, at, fragments, counter)
    return true
  }

  committed(_orgId: string): void {
    this.#onCommitted?.()
    this.wakeSubscribers()
  }

  /** Events were numbered, or another process committed some: subscribers look for new work. */
  wakeSubscribers(): void {
    for (const subscriber of this.#subscribers) subscriber.wake?.()
  }
}
