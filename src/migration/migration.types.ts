/**
 * The shapes the migration capability shares between its parts: the analysis report (analyzer ->
 * API, UI, importer), field mappings (analyzer -> configuration -> importer), the configuration,
 * the migration record with its per-object progress (importer -> API, SSE, UI), and the issues
 * (failed, skipped and warned records). JSON field names are snake_case like the rest of the API.
 */
import type { KindName } from '../records/contracts.ts'

// ---------------------------------------------------------------------------------------------
// States (docs/decisions.md, "Migration states")
// ---------------------------------------------------------------------------------------------

export const MIGRATION_STATUSES = [
  'analyzing',
  'analyzed',
  'configured',
  'running',
  'paused',
  'completed',
  'completed_with_errors',
  'failed',
  'cancelled',
] as const
export type MigrationStatus = (typeof MIGRATION_STATUSES)[number]

// `not_run`: a failed import ended before it reached the object (a failed migration never continues).
export const OBJECT_STATUSES = ['pending', 'running', 'completed', 'failed', 'skipped', 'not_run'] as const
export type ObjectStatus = (typeof OBJECT_STATUSES)[number]

export type SourceEnvironment = 'production' | 'sandbox'

// ---------------------------------------------------------------------------------------------
// Source objects the service imports
// ---------------------------------------------------------------------------------------------

/** The source objects with a target in the service (service-spec.md, "Migration mapping"). */
export const SUPPORTED_OBJECTS = ['Account', 'Contact', 'Lead', 'Product2', 'Opportunity', 'Case', 'CaseComment', 'Task', 'Event'] as const
export type SupportedObject = (typeof SUPPORTED_OBJECTS)[number]

/** `automatic`: selected by default; `planned`: may be selected; `none`: no target (custom objects, others). */
export type SupportLevel = 'automatic' | 'planned' | 'none'

// ---------------------------------------------------------------------------------------------
// Field mapping (analysis -> configuration -> importer)
// ---------------------------------------------------------------------------------------------

/**
 * What happens to one source field:
 * - `field`: its value, converted by `transform`, goes to the target field `target`;
 * - `reference`: a lookup, resolved through `src_id` to a target record id; `targets` says which
 *   target field receives it for each referenced source object (polymorphic lookups have several);
 * - `owner`: a user lookup (OwnerId, CreatedById of comments) mapped to a member by email;
 * - `custom_field`: the value is kept in the record's `custom_fields` under the source field name;
 * - `ignore`: not imported (`notes` says why: formula, system field, compound parent, ...).
 */
export type MappingAction = 'field' | 'reference' | 'owner' | 'custom_field' | 'ignore'

/** How a value is converted for a `field` (and `custom_field`) mapping. */
export type Transform =
  | 'text' // strings, text areas, phones, ids; trimmed to the target's maxLength with a warning
  | 'email' // trimmed; must be a valid address
  | 'url'
  | 'integer' // int, double or currency with no fraction; rounding noted when lossy
  | 'decimal' // currency, double, percent -> exact decimal string with 2 fraction digits
  | 'boolean'
  | 'date' // YYYY-MM-DD
  | 'datetime' // RFC 3339
  | 'enum' // picklist value -> target enumeration through `picklist.values`
  | 'multipicklist' // "a;b;c" -> text (kept as written) or an array in custom_fields
  | 'record_type' // RecordTypeId -> the record type's developer name (org-specific ids are meaningless elsewhere)

/** Whether the value survives as it is. */
export type MappingStatus = 'exact' | 'lossy' | 'unmapped'

export interface PicklistValueMapping {
  source: string
  /** Target enumeration value, or null when nothing matches (then `fallback` applies). */
  target: string | null
}

export interface FieldMapping {
  /** Source field API name, e.g. `BillingStreet`. */
  source: string
  label: string
  /** The describe `type` (string, picklist, reference, currency, address, ...). */
  source_type: string
  custom: boolean
  /** Formula or roll-up (`calculated: true` in the describe). */
  calculated: boolean
  /** The source requires a value (not nillable, createable, not defaulted). */
  required: boolean
  /** Facts of the source field that a changed mapping (Configure) is checked against: text length, decimals, picklist values. */
  source_length?: number | null
  source_scale?: number | null
  source_values?: string[]
  action: MappingAction
  /** Target field of the kind for `field`, `owner`; null for the others. */
  target: string | null
  transform: Transform | null
  /** For `reference`: referenced source object -> target field, e.g. {Contact: 'contact_id', Lead: 'lead_id'}. */
  targets?: Record<string, string>
  /** For `reference`: the objects the describe says it can point to (`referenceTo`). */
  reference_to?: string[]
  /** For `enum`: each source value's target, and what unmatched values become. */
  picklist?: { values: PicklistValueMapping[]; fallback: string | null }
  /** For `field`: further target fields computed from the same value (Website also fills `domain`). */
  derived?: Array<{ target: string; rule: 'domain' }>
  status: MappingStatus
  /** Plain-language reasons, shown in the report ("formula field: not imported", "3 picklist values have no match"). */
  notes: string[]
}

/** A user's change to one field's mapping in Configure (`PUT /config`). */
export type FieldOverride = { action: 'field'; target: string } | { action: 'custom_field' } | { action: 'ignore' }

/**
 * One source record after the field mapping (mapping/transform-record.ts -> importer). `fields` holds
 * target columns with values ready to write; lookups and owners are still source ids, which the
 * importer resolves through `src_id` and the owner map.
 */
export interface TransformedRecord {
  src_id: string
  created_at: Date
  fields: Record<string, unknown>
  custom_fields: Record<string, unknown>
  /** `field`: target field (`account_id`); `object`: referenced source object; `src_id`: its source id; `source`: the source field (`AccountId`). */
  references: Array<{ field: string; object: string; src_id: string; source: string }>
  /** The source user to map to a member (OwnerId, or CreatedById of a comment); null when none. */
  owner: { field: string; src_id: string } | null
  /** Imported with a change worth telling (`truncated`, `invalid_url`, `out_of_range`, ...); `field`: the source field concerned. */
  warnings: Array<{ code: string; reason: string; field?: string }>
}

// ---------------------------------------------------------------------------------------------
// What the source reader hands the analyzer (source/ -> analysis/)
// ---------------------------------------------------------------------------------------------

/** A describe field as the platform returns it; only the keys the analyzer reads are typed. */
export interface SourceField {
  name: string
  label: string
  type: string
  length?: number
  precision?: number
  scale?: number
  custom: boolean
  calculated: boolean
  createable: boolean
  updateable?: boolean
  nillable: boolean
  defaultedOnCreate: boolean
  autoNumber?: boolean
  externalId?: boolean
  unique?: boolean
  compoundFieldName?: string | null
  referenceTo?: string[]
  relationshipName?: string | null
  polymorphicForeignKey?: boolean
  picklistValues?: Array<{ value: string; label: string; active: boolean; defaultValue: boolean }>
  calculatedFormula?: string | null
  [key: string]: unknown
}

export interface SourceDescribe {
  name: string
  label: string
  labelPlural?: string
  custom: boolean
  customSetting?: boolean
  keyPrefix?: string | null
  fields: SourceField[]
  childRelationships?: Array<{ childSObject: string; field: string; relationshipName: string | null; cascadeDelete: boolean }>
  recordTypeInfos?: Array<{ developerName: string; name: string; recordTypeId: string; active: boolean; master: boolean }>
  [key: string]: unknown
}

/** One entry of describeGlobal's `sobjects`. */
export interface SourceGlobalEntry {
  name: string
  label: string
  custom: boolean
  customSetting: boolean
  queryable: boolean
  retrieveable: boolean
  deprecatedAndHidden: boolean
  keyPrefix: string | null
  [key: string]: unknown
}

export interface SourceMetadata {
  instance_url: string
  api_version: string
  organization_id: string | null
  environment: SourceEnvironment | null
  global: SourceGlobalEntry[]
  /** Describes of the inventory's objects (after filtering), by name. */
  describes: Record<string, SourceDescribe>
  /** Record counts by object (exact `SELECT COUNT()` or the platform's recordCount). */
  counts: Record<string, number>
  automation: {
    triggers: Array<{ Name: string; TableEnumOrId: string; Status: string; NamespacePrefix: string | null; UsageBeforeInsert?: boolean; UsageAfterInsert?: boolean; UsageBeforeUpdate?: boolean; UsageAfterUpdate?: boolean; UsageBeforeDelete?: boolean; UsageAfterDelete?: boolean; UsageAfterUndelete?: boolean }>
    flows: Array<{ ApiName: string; Label: string; ProcessType: string; TriggerType: string | null; RecordTriggerType?: string | null; TriggerObjectOrEventLabel: string | null; IsActive: boolean; NamespacePrefix?: string | null }>
    workflow_rules: Array<{ Name: string; TableEnumOrId: string; NamespacePrefix: string | null }>
    /** What could not be read (no permission, no Tooling API), so the report says so instead of claiming zero. */
    unavailable: string[]
  }
  users: Array<{ Id: string; Name: string; Email: string | null; IsActive: boolean }>
  record_types: Array<{ Id: string; DeveloperName: string; SobjectType: string }>
  /** `DailyApiRequests` of GET /limits, or null when unreadable. */
  limits: { max: number; remaining: number } | null
  /** Samples of email addresses per object (Contact, Lead), for the duplicate check. */
  email_samples: Record<string, string[]>
  /**
   * Objects whose describe, count or rows could not be read (no permission, not queryable...),
   * with the platform's reason, so the report says so instead of counting them as empty.
   * Added by the source reader (source/metadata-reader.ts).
   */
  unreadable?: Array<{ object: string; reason: string }>
  /** Why GET /limits could not be read (limits is then null); absent when it was read or never asked. */
  limits_unreadable?: string
  /** Objects whose email sample could not be read, with the reason: their duplicates are unknown, not none. */
  email_samples_unreadable?: Array<{ object: string; reason: string }>
}

/**
 * Where reading one object resumes (source/record-reader.ts). The importer stores it in the same
 * transaction as the page it came with. Invariant: every record with `Id <= after_id` has been
 * handed over. `bulk` is an unfinished Bulk API 2.0 query job (created with `WHERE Id > after_id`)
 * and the locator of its next result page (null: its first page); a job that no longer exists is
 * re-created from `after_id`.
 */
export interface ReadCheckpoint {
  after_id: string | null
  bulk?: { job_id: string; locator: string | null } | null
}

/** What the service brings to the analysis besides the source's metadata. */
export interface AnalysisContext {
  /** Members of the organization (owners are matched to them by email). */
  members: Array<{ user_id: string; email: string }>
  /** Import speed the timeline assumes, measured by bench/migration.ts on this service. */
  assumed_records_per_second: number
  now: Date
}

// ---------------------------------------------------------------------------------------------
// Analysis report
// ---------------------------------------------------------------------------------------------

export type Compatibility = 'auto' | 'partial' | 'manual_review'

export interface AutomationSummary {
  active_triggers: number
  record_triggered_flows: number
  scheduled_flows: number
  other_flows: number
  workflow_rules: number
  /** trigger x3 + record-triggered flow x2 + workflow rule x1 (+ scheduled flow x1) (source-platform.md §3.4). */
  weighted_score: number
  level: 'none' | 'low' | 'medium' | 'high'
  /** Names, for the report ("Trigger CaseAfterInsert (after insert, update)"). */
  items: Array<{ kind: 'trigger' | 'flow' | 'workflow_rule'; name: string; detail: string }>
}

export interface ObjectAnalysis {
  /** Source API name. */
  name: string
  label: string
  custom: boolean
  /** Managed-package namespace (`acme` of `acme__Subscription__c`), or null. */
  namespace: string | null
  /** The 3-character prefix of its record ids (`001` for Account), from the describe; routes polymorphic ids. */
  key_prefix: string | null
  record_count: number
  /** Target kind, or null when the service has none. */
  target: KindName | null
  support: SupportLevel
  /** Selected in Configure unless the user changes it. */
  default_selected: boolean
  compatibility: Compatibility
  /** Why it got that score, in plain words; empty for a clean `auto`. */
  reasons: string[]
  fields: FieldMapping[]
  automation: AutomationSummary
  /** How the importer will read it: Bulk API 2.0 for large objects, REST queries for small ones. */
  read_via: 'rest' | 'bulk'
}

export type RiskSeverity = 'high' | 'medium' | 'low'

export interface RiskItem {
  /** Stable code, e.g. `formula_fields`, `custom_object_no_target`, `owners_unmatched`, `api_allowance`. */
  code: string
  severity: RiskSeverity
  /** Source object it concerns, or null for org-wide risks. */
  object: string | null
  title: string
  detail: string
  recommended_action: string
}

export interface ReadinessScore {
  /** 0-100. */
  score: number
  /** Record-weighted share of auto objects, of partial ones (counted PARTIAL_WEIGHT, readiness.ts), and each penalty. */
  auto_share: number
  partial_share: number
  penalties: Array<{ reason: string; points: number }>
  /** One paragraph saying how the number was computed. */
  explanation: string
}

export interface TimelineEstimate {
  records: number
  /** API calls the import is expected to make (queries, Bulk jobs and result pages). */
  estimated_api_calls: number
  allowance: { max: number; remaining: number } | null
  /** Records per second the estimate assumes (measured import speed of this service). */
  assumed_records_per_second: number
  estimated_seconds: number
  phases: Array<{ name: string; objects: string[]; records: number; estimated_seconds: number }>
}

export interface AnalysisReport {
  generated_at: string
  source: { instance_url: string; organization_id: string | null; environment: SourceEnvironment | null; api_version: string }
  /** Standard and custom objects worth migrating, with counts (system objects filtered out). */
  objects: ObjectAnalysis[]
  /** What the inventory filter dropped (shares, history, feeds, change events, metadata types...). */
  filtered_objects: { count: number; examples: string[] }
  automation: AutomationSummary
  risks: RiskItem[]
  readiness: ReadinessScore
  timeline: TimelineEstimate
  owners: { source_users: number; matched: number; unmatched: Array<{ src_id: string; name: string; email: string | null; active: boolean }> }
  duplicates: Array<{ object: string; sampled: number; duplicate_groups: number; examples: string[] }>
  /** The recommended practice of the spec, as steps the report shows. */
  recommended_phases: Array<{ name: string; objects: string[]; why: string }>
}

// ---------------------------------------------------------------------------------------------
// Configuration (Configure step, PUT /api/v1/migration/{id}/config)
// ---------------------------------------------------------------------------------------------

export type MissingParentPolicy = 'import_without_link' | 'skip_record' | 'fail_record'
export type OwnerPolicy = 'match_by_email' | 'leave_empty'
export type DedupAction = 'link' | 'update' | 'create'

export interface MigrationConfig {
  /** Source objects to import. CaseComment follows Case (selected with it, never alone). */
  objects: string[]
  /** Source object -> source field -> override of the analysis' mapping. */
  field_overrides: Record<string, Record<string, FieldOverride>>
  relationships: { missing_parent: MissingParentPolicy; owners: OwnerPolicy }
  dedup: {
    accounts: { match_by: 'none' | 'domain' | 'name'; on_match: DedupAction }
    contacts: { match_by: 'none' | 'email'; on_match: DedupAction }
    leads: { match_by: 'none' | 'email'; on_match: DedupAction }
  }
  /** `all`: one run; `accounts_contacts_first`: a first run of accounts and contacts, a second of the rest. */
  phasing: 'all' | 'accounts_contacts_first'
  /** Send webhook events for imported records (off by default: a load must not flood receivers). */
  emit_webhooks: boolean
  /**
   * Source fields kept in custom_fields become custom field definitions (typed from the describe)
   * and their values go under the definition's name. Absent: false.
   */
  create_custom_fields?: boolean
}

// ---------------------------------------------------------------------------------------------
// Progress and the migration record
// ---------------------------------------------------------------------------------------------

/** What happened to an object's records so far (a page's share of it, while importing). */
export interface RecordCounts {
  processed: number
  created: number
  updated: number
  /** Matched an existing record by a deduplication rule and linked to it (not written). */
  linked: number
  skipped: number
  failed: number
  warnings: number
}

export interface ObjectProgress extends RecordCounts {
  object: string
  target: KindName
  status: ObjectStatus
  total: number
  records_per_second: number | null
  seconds_left: number | null
  started_at: string | null
  finished_at: string | null
}

export interface ValidationRow {
  object: string
  target: KindName
  source_count: number
  /** created + updated + linked. */
  imported: number
  skipped: number
  failed: number
  /** Records of the target kind in this organization carrying a src_id from this source, counted after the run. */
  found_in_target: number
}

export type IssueKind = 'failed' | 'skipped' | 'warning'

export interface MigrationIssue {
  id: string
  object: string
  src_id: string | null
  kind: IssueKind
  /** Stable code: validation_failed, missing_parent, duplicate_linked, truncated, ... */
  code: string
  /** The target field concerned, when the issue is about one. */
  field: string | null
  reason: string
  /** The source record as read (for failed and skipped records). */
  source_data: Record<string, unknown> | null
  created_at: string
}

export interface MigrationView {
  id: string
  status: MigrationStatus
  /** Why it failed or is paused, in plain words; null otherwise. */
  status_reason: string | null
  environment: SourceEnvironment | null
  src_instance_url: string
  source_org_id: string | null
  created_at: string
  updated_at: string
  analyzed_at: string | null
  started_at: string | null
  finished_at: string | null
  /** When a paused run looks at the source platform's allowance again. */
  resume_at: string | null
  cancel_requested: boolean
  /** Phase of a phased run: 1 of 2, 2 of 2, or null for a single run. */
  phase: { current: number; total: number; next_available: boolean } | null
  config: MigrationConfig | null
  progress: ObjectProgress[]
  totals: { total: number; processed: number; created: number; updated: number; linked: number; skipped: number; failed: number; warnings: number }
  validation: ValidationRow[] | null
  /** A short summary of the analysis (the full report is GET /migration/{id}/report). */
  summary: { readiness: number; objects: number; records: number; risks: { high: number; medium: number; low: number } } | null
}
