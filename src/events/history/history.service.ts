/**
 * History and operations as a caller reads them, for both doors (REST routes and MCP tools): pages
 * shaped for the caller's scopes, with actors by name, and the 404 of a record the organization
 * never had.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { keysetPage } from '../../http/keyset-page.ts'
import { NotFound } from '../../shared/errors.ts'
import type { AuthContext } from '../../shared/auth-context.ts'
import { recordAccess, recordReads } from '../../records/index.ts'
import type { RecordKind } from '../../records/contracts.ts'
import { operationsPage, recordHistoryPage, type OperationFilter } from './history.repository.ts'
import { actorsOf, changesFor, operationView, type HistoryEntry, type OperationView } from './history-view.ts'

export interface Page<T> {
  data: T[]
  next_cursor: string | null
  has_more: boolean
}

/** One record's history, newest first; 404 when there is none and no such record (the organization never had it). */
export async function recordHistory(db: Kysely<DB>, primary: Kysely<DB>, auth: AuthContext, kind: RecordKind, id: string, cursor: string | undefined, limit: number): Promise<Page<HistoryEntry>> {
  if (!recordAccess.mayRead(kind, auth)) await recordReads.getRecord(primary, auth, kind, id)
  const rows = await recordHistoryPage(db, auth.orgId, kind.name, id, cursor, limit)
  if (rows.length === 0 && !cursor && (await recordReads.getRecord(primary, auth, kind, id)) === null) throw new NotFound(kind.label)
  const page = keysetPage(rows, limit)
  const actor = await actorsOf(db)(page.data)
  return {
    ...page,
    data: page.data.map((row) => ({ id: row.id, at: row.occurred_at.toISOString(), action: row.action, operation_id: row.operation_id, actor: actor(row), changes: changesFor(auth, row) })),
  }
}

export async function listOperations(db: Kysely<DB>, auth: AuthContext, filter: OperationFilter, cursor: string | undefined, limit: number): Promise<Page<OperationView>> {
  const rows = await operationsPage(db, auth.orgId, filter, cursor, limit)
  const page = keysetPage(rows, limit)
  const actor = await actorsOf(db)(page.data)
  return { ...page, data: page.data.map((row) => operationView(row, actor(row))) }
}
