/**
 * The path of a record change, as records sees it (docs/architecture.md):
 *
 *   a door (REST, MCP, a CSV import, a migration) builds a Writer: who writes (the actor), for which
 *   operation, and where changes go (the change journal, which the app wires in app.ts);
 *   inWriteTransaction opens the one kind of transaction records are written in: the rows, their
 *   tombstones and the journal entries of every change commit together, a keyed request's outcome
 *   with them (idempotency), and the journal hears of the commit afterwards, without the caller
 *   having to remember to say so.
 */
import type { FastifyRequest } from 'fastify'
import type { Transaction } from 'kysely'
import type { DB } from '../db/database.ts'
import { writeTransaction } from '../db/write-transaction.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { uuidv7 } from '../shared/ids.ts'
import type { Executor } from './record.repository.ts'
import type { RecordChange } from './record.service.ts'

/** `restored`: a deleted record brought back with its id (an operation's revert, record-revert.ts). */
export type RecordAction = 'created' | 'updated' | 'deleted' | 'restored' | 'converted' | 'escalated'

/** Which door a change came in by. */
export const CHANNELS = ['app', 'api', 'mcp', 'import', 'migration', 'system'] as const
export type Channel = (typeof CHANNELS)[number]

/** Who made a change: the person, the API client their token belongs to, and the door. */
export interface Actor {
  userId: string | null
  clientId: string | null
  channel: Channel
}

/**
 * Where record changes go, inside the writing transaction and after its commit. The events
 * capability implements it (src/events/change-journal.ts); records only knows this port.
 */
export interface ChangeJournal {
  /** Journals the events of one action's changes in the writing transaction. False: nothing was journaled. */
  record(trx: Executor, writer: Writer, action: RecordAction, changes: readonly RecordChange[], options: WriteOptions): Promise<boolean>
  /** Told once after a transaction that journaled committed. */
  committed(orgId: string): void
}

/** Who writes, as what operation, and where the changes go: what every record write takes. */
export interface Writer {
  /** The caller: organization, scopes (answers are shaped by them), the idempotency receipt. */
  auth: AuthContext
  actor: Actor
  /** Shared by every change of one request, batch, CSV import or migration run (undo builds on it). */
  operationId: string
  journal: ChangeJournal
}

/**
 * Per-write options. `numberEvents` is set by bulk writes (the batch endpoint, an import page):
 * their events are numbered in the writing transaction, under the organization's journal counter
 * lock, instead of after the commit by the sequencer (src/events/sequencer.ts says why that is
 * safe). `after` is awaited before the lock is taken: an import page waits there for the page ahead
 * of it, which holds the lock until it commits, so two pages never wait on each other in opposite
 * directions.
 */
export interface WriteOptions {
  numberEvents?: { after?: PromiseLike<unknown> }
}

/** An open write: the transaction, who writes, and how its changes reach the journal. */
export interface WriteTx {
  trx: Transaction<DB>
  writer: Writer
  /** Journals the changes of one action, in this transaction (the rows must already be written). */
  changed(action: RecordAction, changes: readonly RecordChange[], options?: WriteOptions): Promise<void>
}

/**
 * The transaction every record write runs in (writeTransaction: a keyed request's outcome commits
 * with it, and its retry gets the outcome back instead of writing). The journal is told of the
 * commit when anything was journaled.
 */
export async function inWriteTransaction<T>(db: Executor, writer: Writer, work: (tx: WriteTx) => Promise<T>): Promise<T> {
  let journaled = false
  const result = await writeTransaction(db, writer.auth.receipt, (trx) =>
    work({
      trx,
      writer,
      async changed(action, changes, options = {}) {
        if (changes.length > 0 && (await writer.journal.record(trx, writer, action, changes, options))) journaled = true
      },
    }),
  )
  if (journaled) writer.journal.committed(writer.auth.orgId)
  return result
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where record changes go (src/events), decorated by the app (app.ts). */
    changeJournal: ChangeJournal
  }
}

/** The writer of a request under /api/v1: its caller, from the web app or an API client, one operation per request. */
export function writerOf(request: FastifyRequest): Writer {
  const auth = request.auth!
  return {
    auth,
    actor: { userId: auth.userId, clientId: auth.clientId ?? null, channel: auth.via === 'session' ? 'app' : 'api' },
    // Not the request id, which a client may set (x-request-id): an operation id is always the service's own.
    operationId: uuidv7(),
    journal: request.server.changeJournal,
  }
}
