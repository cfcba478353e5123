/**
 * The front door of records: what other capabilities may use, in a few groups that say what
 * records offers. Reads take the caller and answer only what its scopes may see (recordAccess);
 * writes run in one transaction with their journal entries (recordChanges) and answer the same way.
 * The vocabulary (the kinds and their fields, body schemas, custom field types) is
 * ./contracts.ts's, shared with the web app. Nothing outside src/records imports its other files
 * (docs/architecture.md, "Doors"; test/architecture/import-rules.test.ts holds both rules).
 */
import { BATCH_OPERATIONS, batchItemSchema, MAX_BATCH_RECORDS } from './bulk/batch-items.ts'
import { writeBatch } from './bulk/batch-write.ts'
import { columnsOf } from './bulk/bulk-sql.ts'
import { updateMatched, upsertImported } from './bulk/import-write.ts'
import { MATCH_KEYS, recordsByMatchKey, takeDeduplicationTurn } from './bulk/match-keys.ts'
import { resolveReferences } from './bulk/reference-lookup.ts'
import { referenceNames } from './bulk/reference-names.ts'
import { writeRowsReportingProblems } from './bulk/row-write.ts'
import { knownSourceIds } from './bulk/source-ids.ts'
import { countUnsetReferences, countWithSourceIds, setReferencesBySourceId } from './bulk/source-references.ts'
import { numberImportedCases } from './cases/case-numbers.ts'
import { customFieldErrors, settledCustomFields } from './custom-fields/custom-field-values.ts'
import { createDefinition, listCustomFieldDefinitions } from './custom-fields/definitions.service.ts'
import { pipelineByStage, pipelineSummary } from './opportunities/pipeline.ts'
import { pipelineRoutes } from './opportunities/pipeline.routes.ts'
import { activitiesByOwner, casesByWeek, pipelineByStageAndOwner, wonLostByMonth } from './reports/report-aggregates.ts'
import { erpFieldsAmong, eventForCaller, hiddenFields, kindOfEventType, mayRead, readScopes, recordForCaller } from './record-access.ts'
import { withArticle } from './record-labels.ts'
import { fieldsUsed, listOptionsFrom } from './record-query.ts'
import { releaseOwnedRecords } from './owner-release.ts'
import { pruneTombstones } from './record-tombstones.ts'
import { applyRevertSteps } from './record-revert.ts'
import { addCaseComment, convertLeadWithEvents, createWithEvents, deleteWithEvents, escalateCaseWithEvents, updateWithEvents } from './record-writes.ts'
import { recordRoutes as restRoutes } from './record.routes.ts'
import { convertLeadBodySchema, leadConversionSchema, countQuerySchema, filterableFields, listQuerySchema, MAX_CUSTOM_FIELDS, MAX_SRC_ID, recordSchema, schemaName } from './record.schemas.ts'
import { changedFields, countListed, getRecord, listDeleted, listRecords, MAX_CUSTOM_FIELDS_BYTES } from './record.service.ts'
import { SEARCH_KINDS } from './search/search-fields.ts'
import { searchRecords } from './search/search.service.ts'
import { specialActionRoutes } from './special-actions.routes.ts'
import { CHANNELS, inWriteTransaction, writerOf } from './write-context.ts'

/** Who may see what: the caller's read scopes, and records and events shaped for them. */
export const recordAccess = { readScopes, mayRead, hiddenFields, erpFieldsAmong, recordForCaller, eventForCaller, kindOfEventType }

/** The Reports page's aggregates (src/reports): computed by the database, amounts as the caller may see them. */
const reports = { pipelineByStageAndOwner, wonLostByMonth, casesByWeek, activitiesByOwner }
export type { ReportFilter } from './reports/report-aggregates.ts'

/** Reads, answered as the caller may see them: one record, lists and counts, search, the pipeline, the reports' aggregates. */
export const recordReads = { getRecord, listRecords, countListed, listDeleted, listOptionsFrom, fieldsUsed, searchRecords, SEARCH_KINDS, pipelineByStage, pipelineSummary, reports }

/**
 * The path of a change (write-context.ts): the one transaction records are written in, who
 * writes (a Writer), its channels, and what changed in a record (for the journal, src/events).
 */
export const recordChanges = { inWriteTransaction, writerOf, CHANNELS, changedFields }

/**
 * One record at a time, with its events: REST, the MCP tools and special actions; the records a
 * leaving member owned, released; tombstones' end; and an operation's changes undone (record-revert.ts).
 */
export const recordWrites = { createWithEvents, updateWithEvents, deleteWithEvents, convertLeadWithEvents, escalateCaseWithEvents, addCaseComment, releaseOwnedRecords, pruneTombstones, applyRevertSteps }

/**
 * Many records at a time (one write path for the record tables): the batch endpoint, CSV rows
 * checked like batch items, and the migration's pages; records found by source id (aliases through
 * the SourceAliases port, which the migration implements), by match key, and case numbers.
 */
export const recordBulk = {
  writeBatch,
  BATCH_OPERATIONS,
  MAX_BATCH_RECORDS,
  batchItemSchema,
  writeRowsReportingProblems,
  resolveReferences,
  referenceNames,
  upsertImported,
  updateMatched,
  columnsOf,
  knownSourceIds,
  setReferencesBySourceId,
  countWithSourceIds,
  countUnsetReferences,
  MATCH_KEYS,
  recordsByMatchKey,
  takeDeduplicationTurn,
  numberImportedCases,
}

/**
 * Schemas of record bodies and queries, for transports that validate before calling, and their
 * limits. Generic ones (uuid, limit, cursor, problem) are src/http/schemas.ts's; the create and
 * patch bodies are in ./contracts.ts.
 */
export const recordSchemas = { recordSchema, schemaName, withArticle, listQuerySchema, countQuerySchema, convertLeadBodySchema, leadConversionSchema, filterableFields, MAX_CUSTOM_FIELDS, MAX_CUSTOM_FIELDS_BYTES, MAX_SRC_ID }

/**
 * Custom fields: definitions per organization and kind (docs/custom-fields.md). Export adds a
 * column per definition; the importers create definitions and check values; the MCP tools build
 * schemas from them (their types and schema builder are in ./contracts.ts).
 */
export const recordCustomFields = { listCustomFieldDefinitions, createDefinition, customFieldErrors, settledCustomFields }

/** The REST routes of records, registered by the app under /api/v1. */
export const recordRoutes = { records: restRoutes, specialActions: specialActionRoutes, pipeline: pipelineRoutes }

// Types, by the same groups.
// Reads.
export type { Executor, ListOptions, PageText } from './record.repository.ts'
export type { Pipeline, PipelineSummary, StageRow, StageSummary } from './opportunities/pipeline.ts'
export type { SearchHit, SearchOptions } from './search/search.service.ts'
export type { SearchKindName } from './search/search-fields.ts'
// Changes and writes: the port through which changes reach the journal (src/events implements it).
export type { RecordChange } from './record.service.ts'
export type { Actor, ChangeJournal, Channel, RecordAction, WriteOptions, Writer, WriteTx } from './write-context.ts'
export type { ConvertLeadInput } from './leads/lead-convert.ts'
export type { ConvertedLead, WrittenRecord } from './record-writes.ts'
export type { ChangedSince, FieldReversal, RevertConflict, RevertOutcome, RevertStep } from './record-revert.ts'
// Bulk, and the port through which records finds source aliases (src/migration implements it).
export type { BatchOperation } from './bulk/batch-items.ts'
export type { BatchOptions, BatchResult } from './bulk/batch-write.ts'
export type { BulkColumn, BulkResult, BulkWritten } from './bulk/bulk-sql.ts'
export type { ImportedRow, ImportWriteOptions } from './bulk/import-write.ts'
export type { KnownSourceId } from './bulk/source-ids.ts'
export type { SourceAliases } from './bulk/source-aliases.ts'
export type { MatchKey } from './bulk/match-keys.ts'
export type { RowProblem, RowsWritten, RowToWrite } from './bulk/row-write.ts'
export type { ReferenceMatch } from './bulk/reference-lookup.ts'
// Custom fields.
export type { NewDefinition } from './custom-fields/definitions.service.ts'
