/**
 * What the two ways of reading an object's records (rest-pages.ts, bulk-pages.ts) have in common:
 * a cursor that fetches one page at a time, and the pull-based iteration around it. The importer
 * pulls; while it writes page k, page k+1 is already being fetched (one page of prefetch, the main
 * speed lever) and never more, so memory holds at most two pages however large the object is.
 */
import type { ReadCheckpoint } from '../migration.types.ts'

export interface ReadPage {
  records: Record<string, unknown>[]
  /** Where to resume once this page is stored (same transaction as its records). */
  checkpoint: ReadCheckpoint
}

export interface CursorPage extends ReadPage {
  /** Nothing follows this page. */
  last: boolean
}

export interface Cursor {
  /** The next page, or null when there is none. Called again only after the previous call settled. */
  next(): Promise<CursorPage | null>
  /** Runs once the consumer has pulled past the last page (its checkpoint is stored by then). */
  finish?(): Promise<void>
}

/** What both cursors read: validated names, Id always first. */
export interface ReadSpec {
  object: string
  fields: string[]
  fieldTypes: Record<string, string>
  checkpoint: ReadCheckpoint
  batchSize: number
}

export async function* iterateCursor(cursor: Cursor, prefetch: boolean): AsyncGenerator<ReadPage> {
  let pending: Promise<CursorPage | null> | null = cursor.next()
  for (;;) {
    const page: CursorPage | null = await pending
    if (!page) break
    // Fetch ahead while the consumer works, but never past the last page: what follows the last
    // page (finish) must wait until the consumer has stored that page's checkpoint.
    pending = prefetch && !page.last ? cursor.next() : null
    // If the consumer stops early, nobody awaits the prefetch: keep its failure from being unhandled.
    pending?.catch(() => {})
    yield { records: page.records, checkpoint: page.checkpoint }
    if (page.last) break
    pending ??= cursor.next()
  }
  await cursor.finish?.()
}
