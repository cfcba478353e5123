/**
 * The port through which records finds source aliases without knowing where they are kept. An
 * alias is a source record a deduplication rule matched to a record that already existed;
 * references to its source id lead to that record. The migration capability keeps the aliases
 * (src/migration/import/source-links.ts, the only code that touches their table) and implements
 * this port; the app passes its implementation to every importer that resolves source ids.
 *
 * The lookup is a SQL fragment, not a call: it sits inside records' one-statement lookups (one
 * index probe per key, db/each-key.ts, and the re-link's single UPDATE), which a second round
 * trip per page, or a join planned from statistics, would undo (source-references.ts).
 */
import type { RawBuilder } from 'kysely'
import type { KindName } from '../record-kind.ts'

export interface SourceAliases {
  /**
   * A query selecting `record_id`, the record the alias of `srcId` (an SQL expression) leads to
   * in the organization: no row when there is none, never more than one.
   */
  aliasedRecord(orgId: string, kind: KindName, srcId: RawBuilder<unknown>): RawBuilder<unknown>
}
