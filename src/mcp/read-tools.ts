/**
 * The read-only MCP tools: list a kind (REST's sort, filters and keyset paging), count it, get one
 * record, search across kinds, and the pipeline summary. Reads go through record.service with REST's scopes and
 * redaction (amounts need erp:read).
 */
import { NotFound } from '../shared/errors.ts'
import { cursorSchema, limitSchema } from '../http/schemas.ts'
import { recordAccess, recordReads, recordSchemas } from '../records/index.ts'
import { kindsByName, recordKinds, sortFields, type RecordKind } from '../records/contracts.ts'
import { commentCaseId, idSchema, kindOf, kindSchema, readRecordJson, readScopesOf, recordOutputSchema, titleOf, TOP_LEVEL_KINDS } from './record-view.ts'
import { check, HINTS, type Args, type JsonSchema, type McpTool, type ToolContext } from './tool-kit.ts'

const SEARCH_LIMIT_MAX = 20

/** What `filters` may hold besides the fields: REST's query parameters that are not filters. */
const NOT_FILTERS = new Set(['limit', 'cursor', 'sort', 'q', 'updated_since', 'ids'])

/**
 * A kind's list filters as an object schema: REST's count query schema (the list's filters:
 * equality, `field[gte]`-style ranges, `field[in]`) without the parameters that have their own argument.
 */
const filterSchemas = new Map<RecordKind, JsonSchema>(
  recordKinds.map((kind) => {
    const query = recordSchemas.countQuerySchema(kind)
    const all = query.properties as Record<string, JsonSchema>
    const properties = Object.fromEntries(Object.entries(all).filter(([name]) => !NOT_FILTERS.has(name)))
    // custom_fields.<name> filters: checked against the organization's definitions by the list itself.
    return [kind, { type: 'object', additionalProperties: false, properties, patternProperties: query.patternProperties }]
  }),
)
/** A kind's `sort` values (REST's enum). */
const sortSchemas = new Map<RecordKind, JsonSchema>(recordKinds.map((kind) => [kind, recordSchemas.listQuerySchema(kind).properties.sort as JsonSchema]))

function filterGuide(): string {
  return TOP_LEVEL_KINDS.map((k) => `${k.name}: ${recordSchemas.filterableFields(k).map((f) => f.name).join(', ') || '(none)'}`).join('\n')
}

function sortGuide(): string {
  return TOP_LEVEL_KINDS.map((k) => `${k.name}: ${sortFields(k).map((f) => f.name).join(', ')}`).join('\n')
}

/** The list options of list_records and count_records: REST's reading of the same parameters. */
function optionsOf(kind: RecordKind, args: Args): ReturnType<typeof recordReads.listOptionsFrom> {
  const filters = (args.filters ?? {}) as Args
  check(filterSchemas.get(kind)!, filters, 'filters.')
  if (args.sort !== undefined) check(sortSchemas.get(kind)!, args.sort, 'sort')
  return recordReads.listOptionsFrom(kind, { ...filters, limit: args.limit, cursor: args.cursor, sort: args.sort, q: args.q, updated_since: args.updated_since })
}

const filterArguments = {
  q: { type: 'string', minLength: 1, maxLength: 200, description: 'Case-insensitive substring to search for.' },
  updated_since: { type: 'string', format: 'date-time', description: 'Only records updated at or after this time (RFC 3339).' },
  filters: {
    type: 'object',
    maxProperties: 20,
    description: 'Equality filters {"stage": "proposal"}, ranges {"amount[gte]": "50000", "close_date[lt]": "2026-07-01"} (dates, datetimes, numbers, created_at, updated_at) and {"status[in]": "new,working"} on status-like fields.',
  },
} as const

const pageOutputSchema: JsonSchema = {
  type: 'object',
  properties: {
    data: { type: 'array', items: recordOutputSchema },
    next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` to get the next page; null on the last page.' },
    has_more: { type: 'boolean' },
  },
  required: ['data', 'next_cursor', 'has_more'],
}

const listRecordsTool: McpTool = {
  name: 'list_records',
  title: 'List records',
  description: [
    'Lists records of one kind, newest first (case comments: oldest first) unless `sort` says otherwise, in pages, exactly like GET /api/v1/{kind}.',
    'Page with `cursor` = the previous page\'s next_cursor until has_more is false. `q` is a case-insensitive substring search of the kind\'s name-like fields;',
    '`updated_since` keeps records changed at or after a time; `filters` holds equality, range and [in] filters. Equality-filterable fields per kind:',
    filterGuide(),
    '`sort` is a field (ascending) or -field (descending), NULLs last. Sortable fields per kind:',
    sortGuide(),
    'For kind case_comment pass `case_id` (the comments of that case). Products need the erp:read scope; opportunity amounts read as null without it.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['kind'],
    properties: {
      kind: kindSchema(recordKinds),
      case_id: idSchema('case whose comments to list (kind case_comment only)'),
      limit: limitSchema,
      cursor: cursorSchema,
      sort: { type: 'string', pattern: '^-?[a-z_]+$', description: 'A sortable field of the kind, or -field for descending (see the list above).' },
      ...filterArguments,
    },
  },
  outputSchema: pageOutputSchema,
  annotations: HINTS.read,
  scopes: readScopesOf,
  async run(ctx, args) {
    const kind = kindOf(args)!
    const opts = optionsOf(kind, args)
    const caseId = commentCaseId(kind, args)
    if (caseId) {
      if (!(await recordReads.getRecord(ctx.db, ctx.auth, kindsByName.case, caseId))) throw new NotFound('Case')
      opts.parent = { column: 'case_id', value: caseId }
    }
    const page = await recordReads.listRecords(ctx.db, ctx.auth, kind, opts)
    return { json: page.json }
  },
}

const countRecordsTool: McpTool = {
  name: 'count_records',
  title: 'Count records',
  description: 'The exact number of records of one kind that list_records with the same q, updated_since and filters would page through, like GET /api/v1/{kind}/count.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['kind'],
    properties: { kind: kindSchema(TOP_LEVEL_KINDS), ...filterArguments },
  },
  outputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
  annotations: HINTS.read,
  scopes: readScopesOf,
  async run(ctx, args) {
    const kind = kindOf(args)!
    const { limit: _limit, ...opts } = optionsOf(kind, args)
    return { json: JSON.stringify({ count: await recordReads.countListed(ctx.db, ctx.auth, kind, opts) }) }
  },
}

const getRecordTool: McpTool = {
  name: 'get_record',
  title: 'Get a record',
  description: 'Reads one record of a kind by its id, exactly like GET /api/v1/{kind}/{id}. Products need the erp:read scope; opportunity amounts read as null without it.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'id'],
    properties: { kind: kindSchema(recordKinds), id: idSchema('record') },
  },
  outputSchema: recordOutputSchema,
  annotations: HINTS.read,
  scopes: readScopesOf,
  async run(ctx, args) {
    return { json: await readRecordJson(ctx, kindOf(args)!, args.id as string) }
  },
}

const searchRecordsTool: McpTool = {
  name: 'search_records',
  title: 'Search records',
  description: [
    'Finds records whose name-like fields contain `q` (case-insensitive) across kinds: accounts, contacts, opportunities, leads, products, cases, activities,',
    `or only the kinds listed in \`kinds\`. Returns up to \`limit_per_kind\` (1-${SEARCH_LIMIT_MAX}, default 5) newest matches per kind, with has_more when`,
    'a kind has more (then page through them with list_records and the same q). Products are searched only with the erp:read scope, and reported in `skipped` otherwise.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['q'],
    properties: {
      q: { type: 'string', minLength: 1, maxLength: 200, description: 'Text to find (a substring of names, emails, subjects, ...).' },
      kinds: { type: 'array', items: kindSchema(TOP_LEVEL_KINDS), minItems: 1, uniqueItems: true, description: 'Only these kinds (default: all).' },
      limit_per_kind: { type: 'integer', minimum: 1, maximum: SEARCH_LIMIT_MAX, default: 5, description: `Matches per kind, 1-${SEARCH_LIMIT_MAX}.` },
    },
  },
  outputSchema: {
    type: 'object',
    properties: {
      q: { type: 'string' },
      groups: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            kind: { type: 'string' },
            has_more: { type: 'boolean' },
            records: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' }, record: recordOutputSchema }, required: ['id', 'title', 'record'] } },
          },
          required: ['kind', 'has_more', 'records'],
        },
      },
      skipped: { type: 'array', items: { type: 'object', properties: { kind: { type: 'string' }, reason: { type: 'string' } }, required: ['kind', 'reason'] } },
    },
    required: ['q', 'groups', 'skipped'],
  },
  annotations: HINTS.read,
  scopes(args) {
    const asked = Array.isArray(args.kinds) ? args.kinds : []
    return asked.includes('product') ? ['crm:read', 'erp:read'] : ['crm:read']
  },
  async run(ctx, args) {
    const q = args.q as string
    const limit = (args.limit_per_kind as number | undefined) ?? 5
    const asked = (args.kinds as string[] | undefined) ?? TOP_LEVEL_KINDS.map((k) => k.name)
    const kinds = TOP_LEVEL_KINDS.filter((k) => asked.includes(k.name))
    const readable = kinds.filter((k) => recordAccess.mayRead(k, ctx.auth))
    const skipped = kinds.filter((k) => !readable.includes(k)).map((k) => ({ kind: k.name, reason: `needs the scope ${recordAccess.readScopes(k).join(' and ')}` }))
    const groups = await Promise.all(
      readable.map(async (kind) => {
        const page = await recordReads.listRecords(ctx.db, ctx.auth, kind, { limit, q, filters: [] })
        const data = JSON.parse(page.json) as { data: Record<string, unknown>[]; has_more: boolean }
        return { kind: kind.name, has_more: data.has_more, records: data.data.map((record) => ({ id: record.id as string, title: titleOf(kind, record), record })) }
      }),
    )
    return { value: { q, groups: groups.filter((g) => g.records.length > 0), skipped } }
  },
}

const pipelineSummaryTool: McpTool = {
  name: 'pipeline_summary',
  title: 'Pipeline summary',
  description:
    'Counts the organization\'s opportunities by stage (every stage listed, in pipeline order) and, with the erp:read scope, totals their amounts per currency. ' +
    'Without erp:read the amounts are left out (amounts_visible: false) and only counts are given.',
  inputSchema: { type: 'object', additionalProperties: false, properties: {} },
  outputSchema: {
    type: 'object',
    properties: {
      stages: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            stage: { type: ['string', 'null'], description: 'null for opportunities without a stage' },
            count: { type: 'integer' },
            amounts: { type: ['array', 'null'], items: { type: 'object', properties: { currency: { type: ['string', 'null'] }, total: { type: 'string' } }, required: ['currency', 'total'] } },
          },
          required: ['stage', 'count', 'amounts'],
        },
      },
      total_count: { type: 'integer' },
      amounts_visible: { type: 'boolean' },
      note: { type: 'string' },
    },
    required: ['stages', 'total_count', 'amounts_visible'],
  },
  annotations: HINTS.read,
  scopes: () => ['crm:read'],
  async run(ctx: ToolContext) {
    const summary = await recordReads.pipelineSummary(ctx.db, ctx.auth)
    const value: Record<string, unknown> = { ...summary }
    if (!summary.amounts_visible) value.note = 'Amounts need the erp:read scope; only counts are shown.'
    return { value }
  },
}

export const readTools: McpTool[] = [searchRecordsTool, listRecordsTool, countRecordsTool, getRecordTool, pipelineSummaryTool]
