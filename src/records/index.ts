/**
 * The front door of records: what other capabilities may use. Reads take the caller and answer
 * only what its scopes may see (record-access.ts); writes run in one transaction with their events
 * and answer the same way. Nothing outside src/records imports its other files (docs/api.md,
 * "One door").
 */

// What a kind is, and the kinds.
export type { FieldDef, FieldType, KindName, RecordKind } from './record-kind.ts'
export { kindsByName, recordKinds } from './kinds/index.ts'
export { OPPORTUNITY_STAGES } from './kinds/opportunity.kind.ts'

// Who may see what.
export { erpFieldsAmong, eventForCaller, hiddenFields, kindOfEventType, mayRead, readScopes, recordForCaller } from './record-access.ts'

// Reads.
export type { Executor, ListOptions, PageText } from './record.repository.ts'
export { countListed, getRecord, listDeleted, listRecords } from './record.service.ts'
export { fieldsUsed, listOptionsFrom } from './record-query.ts'
export { sortFields } from './list-params.ts'
export { pruneTombstones } from './record-tombstones.ts'
export { pipelineByStage, pipelineSummary, type Pipeline, type PipelineSummary, type StageRow, type StageSummary } from './opportunities/pipeline.ts'
export { searchRecords, type SearchHit, type SearchOptions } from './search/search.service.ts'
export { SEARCH_KINDS, type SearchKindName } from './search/search-fields.ts'

// Writes.
export type { ConvertLeadInput } from './leads/lead-convert.ts'
export {
  addCaseComment,
  convertLeadWithEvents,
  createWithEvents,
  deleteWithEvents,
  escalateCaseWithEvents,
  updateWithEvents,
  type ConvertedLead,
  type WrittenRecord,
} from './record-writes.ts'

// Schemas of record bodies and queries, for transports that validate before calling. Generic ones
// (uuid, limit, cursor, problem) are src/http/schemas.ts's.
export { MAX_CUSTOM_FIELDS_BYTES } from './record.service.ts'
export { withArticle } from './record-labels.ts'
export { recordSchema } from './record.schemas.ts'
export { schemaName } from './record.schemas.ts'
export { convertLeadBodySchema, countQuerySchema, createBodySchema, filterableFields, listQuerySchema, MAX_CUSTOM_FIELDS, MAX_SRC_ID, patchBodySchema } from './record.schemas.ts'

// Bulk writes: the batch endpoint's and the importer's (one write path for the record tables).
export { BATCH_OPERATIONS, batchItemSchema, MAX_BATCH_RECORDS, type BatchOperation } from './bulk/batch-items.ts'
export { writeBatch, type BatchOptions, type BatchResult } from './bulk/batch-write.ts'
export { columnsOf, type BulkColumn, type BulkResult, type BulkWritten } from './bulk/bulk-sql.ts'
export { updateMatched, upsertImported, type ImportedRow, type ImportWriteOptions } from './bulk/import-write.ts'
export { addSourceAliases, hasSourceAliases, knownSourceIds, type KnownSourceId } from './bulk/source-ids.ts'
export { MATCH_KEYS, recordsByMatchKey, takeDeduplicationTurn, type MatchKey } from './bulk/match-keys.ts'
export { countUnsetReferences, countWithSourceIds, setReferencesBySourceId } from './bulk/source-references.ts'
export { numberImportedCases } from './cases/case-numbers.ts'
// CSV imports: rows checked like batch items, the good ones written and the others reported;
// references as people write them (id, src_id, name, email).
export { writeRowsReportingProblems, type RowProblem, type RowsWritten, type RowToWrite } from './bulk/row-write.ts'
export { resolveReferences, type ReferenceMatch } from './bulk/reference-lookup.ts'

// The path of a change (write-context.ts): who writes (Writer), the one transaction records are
// written in, and the port through which changes reach the journal (src/events implements it).
export type { RecordChange } from './record.service.ts'
export { changedFields } from './record.service.ts'
export { releaseOwnedRecords } from './owner-release.ts'
export { CHANNELS, inWriteTransaction, writerOf, type Actor, type ChangeJournal, type Channel, type RecordAction, type WriteOptions, type Writer, type WriteTx } from './write-context.ts'

// Custom fields: definitions per organization and kind (docs/custom-fields.md). Export adds a
// column per definition from listCustomFieldDefinitions; the importer creates definitions and
// checks values with customFieldErrors; the MCP tools and the app build schemas from the definitions.
export {
  CUSTOM_FIELD_TYPES,
  customFieldsSchema,
  suggestedName,
  type CustomFieldDefinition,
  type CustomFieldType,
} from './custom-fields/definition.ts'
export { createDefinition, listCustomFieldDefinitions, type NewDefinition } from './custom-fields/definitions.service.ts'
export { customFieldErrors, settledCustomFields } from './custom-fields/custom-field-values.ts'

// The REST routes of records, registered by the app under /api/v1.
export { recordRoutes } from './record.routes.ts'
export { specialActionRoutes } from './special-actions.routes.ts'
export { pipelineRoutes } from './opportunities/pipeline.routes.ts'
