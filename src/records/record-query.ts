/**
 * A list request's query string (REST) or arguments (MCP) as repository list options: the one
 * reading of limit, cursor, q, updated_since, ids and the kind's equality filters.
 */
import type { RecordKind } from './record-kind.ts'
import type { ListOptions } from './record.repository.ts'
import { filterableFields } from './record.schemas.ts'

export function listOptionsFrom(kind: RecordKind, query: Record<string, unknown>): ListOptions {
  return {
    limit: (query.limit as number | undefined) ?? 50,
    cursor: query.cursor as string | undefined,
    q: query.q as string | undefined,
    updatedSince: query.updated_since as string | undefined,
    ids: typeof query.ids === 'string' ? query.ids.split(',') : undefined,
    filters: filterableFields(kind)
      .filter((f) => query[f.name] !== undefined)
      .map((field) => ({ field, value: query[field.name] })),
  }
}
