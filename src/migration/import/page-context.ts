/**
 * What every step of a page's import reads: the object being imported, its mapping, and the
 * decisions Configure made for it (reference targets, missing parents, owners, deduplication,
 * events). Built once per object by object-step.ts.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { BulkColumn, Writer } from '../../records/index.ts'
import type { CustomFieldDefinition, RecordKind } from '../../records/contracts.ts'
import type { CompiledMapping } from '../mapping/transform-record.ts'
import type { MissingParentPolicy } from '../migration.types.ts'
import type { DedupRule } from './dedup.ts'

type Db = Kysely<DB>

/** Where a reference to a source object leads: the kind it becomes, and when it is imported. */
export interface ReferenceTarget {
  kind: RecordKind
  /** Imported after the holder (or the holder's own object): set by the re-link pass. */
  deferred: boolean
  /**
   * Part of this run (or its phases). A reference to an object the migration does not import is a
   * choice made in Configure, not a data problem: when no record of it exists here already, the
   * link stays empty, the source id is kept in custom_fields, and one summary warning per object
   * says so (object-step.ts), instead of a warning, skip or failure per record.
   */
  imported: boolean
}

export interface PageContext {
  db: Db
  orgId: string
  migrationId: string
  object: string
  kind: RecordKind
  mapping: CompiledMapping
  columns: readonly BulkColumn[]
  /** Referenced source object -> its target. Objects not listed are out of scope (no link). */
  referenceTargets: ReadonlyMap<string, ReferenceTarget>
  /** Reference fields the record cannot exist without (a comment's case). */
  requiredReferences: ReadonlySet<string>
  missingParent: MissingParentPolicy
  /** Source user id -> member user id (null: no member with that email) and the user's name. */
  owners: ReadonlyMap<string, { userId: string | null; name: string }>
  ownersPolicy: 'match_by_email' | 'leave_empty'
  dedup: DedupRule | null
  /** Earlier runs linked records of this kind (migration_links has rows for it): look them up. */
  hasLinks: boolean
  /** Journal record events, and send them to webhooks (Configure's option). */
  emitWebhooks: boolean
  /** The run's writer: the `migration` channel, the migration's id as the operation. */
  writer: Writer
  /** PAGE_LOCK_TIMEOUT_MS (shorter in tests). */
  lockTimeoutMs: number
  /** One database connection (the embedded database): case numbers are given inside the page's transaction. */
  single: boolean
  /** Configure's create_custom_fields: source field -> the custom field its values go to (custom-field-definitions.ts). */
  customFieldTargets: ReadonlyMap<string, CustomFieldDefinition>
}
