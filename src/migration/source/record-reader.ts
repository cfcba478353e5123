/**
 * Reads the records of one source object as pages the importer pulls, each with the checkpoint
 * to store in the same transaction as its records, so a run killed at any moment resumes after
 * the last stored page with no gap (pages may be read twice; the importer upserts by src_id).
 *
 * `rest`: keyset queries (rest-pages.ts), for small and medium objects. `bulk`: one Bulk API 2.0
 * query job (bulk-pages.ts), for large ones. Both hand over records shaped like the REST JSON
 * without `attributes`; the order of records within and across pages is not part of the contract.
 */
import type { ReadCheckpoint } from '../migration.types.ts'
import type { SourceConnection } from './source-connection.ts'
import { bulkCursor, type BulkPollOptions } from './bulk-pages.ts'
import { iterateCursor, type ReadPage } from './read-cursor.ts'
import { REST_MAX_BATCH, restCursor } from './rest-pages.ts'
import { soqlId, soqlName } from './soql.ts'

/** Rows per Bulk result page: large enough for few calls, small enough that two pages fit a 256 MB heap. */
export const BULK_DEFAULT_BATCH = 10_000

export interface ReadPagesOptions {
  object: string
  /** Fields to read; `Id` is added first when missing (the checkpoint needs it), duplicates dropped. */
  fields: string[]
  /** Describe type per field (`boolean`, `int`, `currency`, ...), to type Bulk CSV values. */
  fieldTypes: Record<string, string>
  checkpoint: ReadCheckpoint
  mode: 'rest' | 'bulk'
  /** Rows per page: REST at most 2,000 (default 2,000); Bulk default 10,000. */
  batchSize?: number
  /** Bulk job status polling (tests make it fast). */
  bulkPoll?: BulkPollOptions
  /** Fetch the next page while the consumer handles the current one (default true). */
  prefetch?: boolean
}

export type { ReadPage }

export function readPages(sc: SourceConnection, opts: ReadPagesOptions): AsyncIterable<ReadPage> {
  const object = soqlName(opts.object)
  // Id first (the checkpoint needs it), each field once (names are case-insensitive).
  const seen = new Set<string>()
  const fields = ['Id', ...opts.fields.map(soqlName)].filter((f) => !seen.has(f.toLowerCase()) && !!seen.add(f.toLowerCase()))
  if (opts.checkpoint.after_id !== null) soqlId(opts.checkpoint.after_id)
  const spec = {
    object,
    fields,
    fieldTypes: opts.fieldTypes,
    checkpoint: opts.checkpoint,
    batchSize: Math.max(1, Math.floor(opts.batchSize ?? (opts.mode === 'bulk' ? BULK_DEFAULT_BATCH : REST_MAX_BATCH))),
  }
  // A checkpoint written in the other mode still holds: after_id is a safe lower bound in both.
  const cursor = opts.mode === 'bulk' ? bulkCursor(sc, spec, opts.bulkPoll) : restCursor(sc, { ...spec, checkpoint: { after_id: spec.checkpoint.after_id, bulk: null } })
  return { [Symbol.asyncIterator]: () => iterateCursor(cursor, opts.prefetch ?? true) }
}
