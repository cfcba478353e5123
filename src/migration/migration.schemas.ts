/**
 * Route schemas of the migration API: the single source of its validation and its OpenAPI. Request
 * schemas are `as const`: the routes take their types from them.
 */
import { cursorSchema, limitSchema, pageSchemaOf, uuidSchema } from '../http/schemas.ts'
import { MIGRATION_STATUSES, OBJECT_STATUSES } from './migration.types.ts'

type Schema = Record<string, unknown>

const ts = { type: 'string', format: 'date-time' }
const tsOrNull = { type: ['string', 'null'], format: 'date-time' }
const count = { type: 'integer', minimum: 0 }
const open = (description: string): Schema => ({ type: 'object', additionalProperties: true, description })

export const migrationParams = { type: 'object', properties: { id: uuidSchema }, required: ['id'] } as const

export const analyzeBody = {
  title: 'MigrationSource',
  type: 'object',
  additionalProperties: false,
  required: ['src_instance_url', 'src_access_token'],
  properties: {
    src_instance_url: { type: 'string', minLength: 1, maxLength: 2000, description: 'Base URL of the source platform instance, e.g. https://acme.my.salesforce.com.' },
    src_access_token: { type: 'string', minLength: 1, maxLength: 4096, description: 'An access token for the source platform. Stored encrypted, never returned, deleted when the migration ends.' },
    src_refresh_token: { type: 'string', minLength: 1, maxLength: 4096, description: 'Optional refresh token, so a long import survives token expiry (needs the operator\'s SOURCE_CLIENT_ID/SECRET).' },
    environment: { type: 'string', enum: ['production', 'sandbox'], description: 'Which kind of source org this is (shown in the report).' },
  },
} as const

export const connectBody = {
  title: 'MigrationConnect',
  type: 'object',
  additionalProperties: false,
  required: ['environment'],
  properties: { environment: { type: 'string', enum: ['production', 'sandbox'], description: 'The source org to connect to. Try a sandbox first.' } },
} as const

export const connectResponse: Schema = {
  title: 'MigrationConsent',
  type: 'object',
  properties: { authorize_url: { type: 'string', description: 'Send the browser here: the source platform\'s consent page. It returns to Cairn, which starts the analysis.' } },
  required: ['authorize_url'],
}

export const runBody = {
  title: 'MigrationRun',
  type: 'object',
  additionalProperties: false,
  required: ['migration_id'],
  properties: { migration_id: { ...uuidSchema, description: 'The migration to run (or to run the next phase of).' } },
} as const

const overrideSchema = {
  oneOf: [
    { type: 'object', additionalProperties: false, required: ['action', 'target'], properties: { action: { const: 'field' }, target: { type: 'string', minLength: 1, maxLength: 100 } } },
    { type: 'object', additionalProperties: false, required: ['action'], properties: { action: { const: 'custom_field' } } },
    { type: 'object', additionalProperties: false, required: ['action'], properties: { action: { const: 'ignore' } } },
  ],
} as const

const dedupRule = <const MatchBy extends readonly string[]>(matchBy: MatchBy) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['match_by', 'on_match'],
    properties: { match_by: { type: 'string', enum: matchBy }, on_match: { type: 'string', enum: ['link', 'update', 'create'] } },
  }) as const

export const configSchema = {
  title: 'MigrationConfig',
  type: 'object',
  additionalProperties: false,
  required: ['objects', 'field_overrides', 'relationships', 'dedup', 'phasing', 'emit_webhooks'],
  properties: {
    objects: { type: 'array', maxItems: 50, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 120 }, description: 'Source objects to import (CaseComment comes with Case).' },
    field_overrides: {
      type: 'object',
      maxProperties: 50,
      description: 'Source object -> source field -> {action: field, target} | {action: custom_field} | {action: ignore}.',
      additionalProperties: { type: 'object', maxProperties: 500, additionalProperties: overrideSchema },
    },
    relationships: {
      type: 'object',
      additionalProperties: false,
      required: ['missing_parent', 'owners'],
      properties: {
        missing_parent: { type: 'string', enum: ['import_without_link', 'skip_record', 'fail_record'], description: 'A record whose parent (account, contact, case...) was not imported.' },
        owners: { type: 'string', enum: ['match_by_email', 'leave_empty'], description: 'Record owners: the member with the same email, or none.' },
      },
    },
    dedup: {
      type: 'object',
      additionalProperties: false,
      required: ['accounts', 'contacts', 'leads'],
      properties: { accounts: dedupRule(['none', 'domain', 'name']), contacts: dedupRule(['none', 'email']), leads: dedupRule(['none', 'email']) },
    },
    phasing: { type: 'string', enum: ['all', 'accounts_contacts_first'], description: 'accounts_contacts_first: a first run imports accounts and contacts; run again for the rest.' },
    emit_webhooks: { type: 'boolean', description: 'Send webhook events for imported records (off: a load must not flood receivers).' },
    create_custom_fields: {
      type: 'boolean',
      description: 'Source fields kept in custom_fields (custom fields and fields with no target) become custom field definitions of their kind, typed from the source (text, number, date, boolean, picklist), and their values are written under the new field names. Absent: false.',
    },
  },
} as const

const progressSchema: Schema = {
  title: 'MigrationProgress',
  type: 'object',
  properties: {
    object: { type: 'string' },
    target: { type: 'string' },
    status: { type: 'string', enum: [...OBJECT_STATUSES] },
    total: count,
    processed: count,
    created: count,
    updated: count,
    linked: count,
    skipped: count,
    failed: count,
    warnings: count,
    records_per_second: { type: ['integer', 'null'] },
    seconds_left: { type: ['integer', 'null'] },
    started_at: tsOrNull,
    finished_at: tsOrNull,
  },
}

const validationRowSchema: Schema = {
  type: 'object',
  properties: { object: { type: 'string' }, target: { type: 'string' }, source_count: count, imported: count, skipped: count, failed: count, found_in_target: count },
}

export const migrationSchema: Schema = {
  title: 'Migration',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: [...MIGRATION_STATUSES] },
    status_reason: { type: ['string', 'null'] },
    environment: { type: ['string', 'null'], enum: ['production', 'sandbox', null] },
    src_instance_url: { type: 'string' },
    source_org_id: { type: ['string', 'null'] },
    created_at: ts,
    updated_at: ts,
    analyzed_at: tsOrNull,
    started_at: tsOrNull,
    finished_at: tsOrNull,
    resume_at: tsOrNull,
    cancel_requested: { type: 'boolean' },
    phase: { type: ['object', 'null'], properties: { current: count, total: count, next_available: { type: 'boolean' } } },
    config: { anyOf: [{ type: 'null' }, open('The configuration (Configure step).')] },
    progress: { type: 'array', items: progressSchema },
    totals: { type: 'object', properties: { total: count, processed: count, created: count, updated: count, linked: count, skipped: count, failed: count, warnings: count } },
    validation: { type: ['array', 'null'], items: validationRowSchema },
    summary: { anyOf: [{ type: 'null' }, open('Readiness score, object and record counts, risks by severity.')] },
  },
  required: ['id', 'status', 'status_reason', 'src_instance_url', 'created_at', 'updated_at', 'progress', 'totals'],
}

export const migrationPageSchema = pageSchemaOf(migrationSchema, 'MigrationPage')

export const reportSchema: Schema = { title: 'MigrationReport', ...open('The analysis report: inventory with field mappings and compatibility, automation, risks, readiness, timeline, owners, duplicates, phases.') }

export const reportQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { download: { type: 'boolean', description: 'Answer as a file download (Content-Disposition: attachment).' } },
} as const

export const issuesQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: limitSchema,
    cursor: cursorSchema,
    kind: { type: 'string', enum: ['failed', 'skipped', 'warning'] },
    object: { type: 'string', minLength: 1, maxLength: 120 },
  },
} as const

export const issueExportQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { kind: { type: 'string', enum: ['failed', 'skipped', 'warning'] } },
} as const

const issueSchema: Schema = {
  title: 'MigrationIssue',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    object: { type: 'string' },
    src_id: { type: ['string', 'null'] },
    kind: { type: 'string', enum: ['failed', 'skipped', 'warning'] },
    code: { type: 'string' },
    field: { type: ['string', 'null'] },
    reason: { type: 'string' },
    source_data: { anyOf: [{ type: 'null' }, open('The source record as read.')] },
    created_at: ts,
  },
}

export const issuePageSchema = pageSchemaOf(issueSchema, 'MigrationIssuePage')
