/**
 * Records as the MCP tools and resources show them: the `kind` and `id` arguments, one record read
 * through record.service with REST's scopes and redaction, a record's title, and the compact field
 * guide that tells a model what each kind accepts.
 */
import type { Scope } from '../shared/auth-context.ts'
import { NotFound, ValidationFailed } from '../shared/errors.ts'
import { uuidSchema } from '../http/schemas.ts'
import { recordAccess, recordReads } from '../records/index.ts'
import { kindsByName, recordKinds, type FieldDef, type KindName, type RecordKind } from '../records/contracts.ts'
import type { Args, JsonSchema, ToolContext } from './tool-kit.ts'

/** Kinds that stand on their own; case comments are reached through their case. */
export const TOP_LEVEL_KINDS: readonly RecordKind[] = recordKinds.filter((k) => k.name !== 'case_comment')

export function kindSchema(kinds: readonly RecordKind[] = recordKinds): JsonSchema {
  return { type: 'string', enum: kinds.map((k) => k.name), description: `Record kind: ${kinds.map((k) => k.name).join(', ')}.` }
}

export function idSchema(what: string): JsonSchema {
  return { ...uuidSchema, description: `Id (UUID) of the ${what}.` }
}

/** The kind an argument names, or null when it names none (validation reports that). */
export function kindOf(args: Args, key = 'kind'): RecordKind | null {
  const name = args[key]
  return typeof name === 'string' && Object.hasOwn(kindsByName, name) ? kindsByName[name as KindName] : null
}

/**
 * The `case_id` argument: required with kind case_comment (comments are reached through their
 * case), refused with any other kind so a misplaced argument is not silently ignored.
 */
export function commentCaseId(kind: RecordKind, args: Args): string | undefined {
  if (kind.name === 'case_comment') {
    if (typeof args.case_id !== 'string') throw new ValidationFailed('Invalid arguments: case_id is required for kind case_comment.', [{ field: 'case_id', message: 'is required for kind case_comment' }])
    return args.case_id
  }
  if (args.case_id !== undefined) throw new ValidationFailed('Invalid arguments: case_id is only for kind case_comment.', [{ field: 'case_id', message: 'is only for kind case_comment' }])
  return undefined
}

/** Reading `kind` needs REST's scopes for it (products: crm:read and erp:read). */
export function readScopesOf(args: Args): Scope[] {
  const kind = kindOf(args)
  return kind ? recordAccess.readScopes(kind) : ['crm:read']
}

/** One record as GET /api/v1/{kind}/{id} shows it to this caller, as JSON text. */
export async function readRecordJson(ctx: ToolContext, kind: RecordKind, id: string): Promise<string> {
  const json = await recordReads.getRecord(ctx.db, ctx.auth, kind, id)
  if (!json) throw new NotFound(kind.label)
  return json
}

export function titleOf(kind: RecordKind, record: Record<string, unknown>): string {
  const parts = kind.titleFields.map((f) => record[f]).filter((v) => v !== null && v !== undefined && v !== '')
  return parts.length ? parts.join(' ') : `${kind.label} ${String(record.id)}`
}

/** What every record has; the fields of each kind are described in the tools' descriptions. */
export const recordOutputSchema: JsonSchema = {
  type: 'object',
  description: 'A record as the REST API returns it: its fields, src_id, custom_fields, created_at and updated_at.',
  properties: {
    id: { type: 'string', format: 'uuid' },
    custom_fields: { type: 'object' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'created_at', 'updated_at'],
  additionalProperties: true,
}

function fieldNote(f: FieldDef): string {
  switch (f.type) {
    case 'enum':
      return `${f.name} (${(f.values ?? []).join('|')})`
    case 'ref':
      return `${f.name} (${f.ref} id)`
    case 'user':
      return `${f.name} (member user id or e-mail; omitted on create: you)`
    case 'decimal':
      return `${f.name} (decimal, e.g. "1250.00")`
    case 'date':
      return `${f.name} (YYYY-MM-DD)`
    case 'datetime':
      return `${f.name} (RFC 3339 time)`
    case 'integer':
    case 'boolean':
    case 'email':
    case 'url':
      return `${f.name} (${f.type})`
    default:
      return f.name
  }
}

/**
 * One line per kind listing its writable fields (`*` = required on create). The full per-kind JSON
 * schemas would make tools/list about 100 kB; this keeps it small and still names every field.
 */
export function fieldGuide(kinds: readonly RecordKind[]): string {
  return kinds
    .map((k) => `${k.name}: ${k.fields.filter((f) => !f.readOnly).map((f) => (f.required ? `${fieldNote(f)}*` : fieldNote(f))).join(', ')}`)
    .join('\n')
}
