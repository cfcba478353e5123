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
export { eventForCaller, kindOfEventType, mayRead, readScopes, recordForCaller } from './record-access.ts'

// Reads.
export type { Executor, ListOptions, PageText } from './record.repository.ts'
export { getRecord, listRecords } from './record.service.ts'
export { listOptionsFrom } from './record-query.ts'
export { pipelineByStage, type Pipeline, type StageRow } from './opportunities/pipeline.ts'

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
export { convertLeadBodySchema, createBodySchema, filterableFields, listQuerySchema, patchBodySchema } from './record.schemas.ts'
// Still passed on for the MCP read tools until they import them from src/http/schemas.ts.
export { cursorSchema, limitSchema } from '../http/schemas.ts'

// Changes, for listeners inside the writing transaction (the webhook outbox).
export type { RecordChange } from './record.service.ts'
export { changedFields } from './record.service.ts'
export { committedChangeListeners, recordChangeHooks, type RecordAction, type RecordChangeHook } from './record-events.ts'
