/**
 * The Analyze step's logic: pure functions from the source's metadata (SourceMetadata, read by
 * source/) to the analysis report: inventory, per-object mapping and compatibility, automation,
 * risks, readiness and the timeline. No I/O here.
 */
export { analyzeSource } from './analyze.ts'
export { objectsToDescribe, takeInventory, exclusionOf, SETUP_OBJECTS, OTHER_BUSINESS_OBJECTS, UNMIGRATED_DATA_OBJECTS } from './inventory.ts'
export { BULK_THRESHOLD, REST_PAGE_ROWS, BULK_RESULT_ROWS, readVia, readCalls, estimateApiCalls, estimateTimeline, recommendedPhases } from './timeline.ts'
export { summarizeAutomation, levelOf, WEIGHTS, OBJECT_LEVELS, ORG_LEVELS } from './automation.ts'
export { scoreObject, MAX_UNMAPPED_REQUIRED } from './compatibility.ts'
export { computeReadiness, PENALTIES } from './readiness.ts'
export { collectRisks, RISK_CHECKS } from './risks.ts'
export { matchOwners } from './owners.ts'
export { findDuplicateEmails, leadsMatchingContacts } from './duplicates.ts'
