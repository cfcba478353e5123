/**
 * `GET /api/v1/{kind}/export.csv`: a list as a CSV file, every page of it. The query is the list's
 * (same schema, same 400s, same scope rules: listRecords through the records door), read page after
 * page along the list's keyset and streamed as each page arrives: a page is read only when the
 * client has taken the previous one (Readable.from pulls), so memory stays one page whatever the
 * export's size. Columns are the fields the caller may read, titled by their labels, references by
 * name with their ids beside (docs/imports.md, "Exports").
 */
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { recordAccess, recordBulk, recordCustomFields, recordReads, recordSchemas } from '../records/index.ts'
import type { ListOptions } from '../records/index.ts'
import { recordKinds, type CustomFieldDefinition, type FieldDef, type RecordKind } from '../records/contracts.ts'
import { CUSTOM_FIELD_TARGET, headerKey } from './header-mapping.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { csvCell, csvLine } from '../shared/csv-cell.ts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'

/** Records read per page when the query gives no `limit`. */
const EXPORT_PAGE = 200
/** Excel reads a UTF-8 file as UTF-8 only when it starts with the byte-order mark. */
const BOM = '\uFEFF'

/** Names of the records (and members) a page's references point to: field -> id -> name. */
type PageNames = Map<string, Map<string, string>>

export interface ExportColumn {
  /** The column's title: the field's label, as a person reads it (and the import maps it back). */
  title: string
  /** The value of a row in this column. */
  value: (row: Record<string, unknown>, names: PageNames) => unknown
}

const field = (f: Pick<FieldDef, 'name' | 'label'>): ExportColumn => ({ title: f.label, value: (row) => row[f.name] })

/**
 * A reference as two columns: its name under the field's label ("Account": "Acme", which the
 * import resolves by name in any organization), and the id beside it ("Account ID", for joins and
 * lookups in the spreadsheet; the import leaves it out once the name column fills the field). A
 * reference whose name cannot be read (a member who left) keeps its id in the name column.
 */
function referenceColumns(f: FieldDef): ExportColumn[] {
  const id = (row: Record<string, unknown>) => row[f.name] as string | null | undefined
  return [
    { title: f.label, value: (row, names) => (id(row) ? (names.get(f.name)?.get(id(row)!) ?? id(row)) : null) },
    { title: `${f.label} ID`, value: id },
  ]
}

/**
 * The columns of a kind's export for this caller (docs/imports.md, "Exports"), titled by labels:
 * fields hidden from it (ERP amounts) are left out; references are a name and an id; each custom
 * field the organization defined for the kind is a column titled by its label (or
 * `custom_fields.<name>` when a built-in column or another custom field already reads so), and
 * "Other custom fields" holds, as JSON, only the keys no definition names (values kept from imports).
 */
export function exportColumns(kind: RecordKind, auth: AuthContext, defined: readonly Pick<CustomFieldDefinition, 'name' | 'label'>[] = []): ExportColumn[] {
  const hidden = new Set(recordAccess.hiddenFields(kind, auth))
  const names = new Set(defined.map((d) => d.name))
  const custom = (row: Record<string, unknown>) => (row.custom_fields ?? {}) as Record<string, unknown>
  const columns: ExportColumn[] = [
    field({ name: 'id', label: 'ID' }),
    ...kind.fields.filter((f) => !hidden.has(f.name)).flatMap((f) => (f.type === 'ref' || f.type === 'user' ? referenceColumns(f) : [field(f)])),
    field({ name: 'src_id', label: 'Source ID' }),
  ]
  // A label the import would read as another field's (a built-in one, or another custom field's name) is not used.
  const taken = new Set([...columns.map((c) => headerKey(c.title)), ...kind.fields.map((f) => headerKey(f.name))])
  for (const d of defined) {
    const otherName = defined.some((o) => o !== d && headerKey(o.name) === headerKey(d.label))
    const title = taken.has(headerKey(d.label)) || otherName ? `${CUSTOM_FIELD_TARGET}${d.name}` : d.label
    taken.add(headerKey(title))
    columns.push({ title, value: (row) => custom(row)[d.name] })
  }
  columns.push(
    {
      title: 'Other custom fields',
      value: (row) => {
        const rest = Object.entries(custom(row)).filter(([key]) => !names.has(key))
        return rest.length === 0 ? null : Object.fromEntries(rest)
      },
    },
    field({ name: 'created_at', label: 'Created at' }),
    field({ name: 'updated_at', label: 'Updated at' }),
  )
  return columns
}

interface Page {
  data: Record<string, unknown>[]
  next_cursor: string | null
}

async function readPage(db: Kysely<DB>, auth: AuthContext, kind: RecordKind, opts: ListOptions): Promise<Page> {
  return JSON.parse((await recordReads.listRecords(db, auth, kind, opts)).json) as Page
}

/** The names of every reference of the page, one query per reference field. */
async function pageNames(db: Kysely<DB>, auth: AuthContext, kind: RecordKind, rows: readonly Record<string, unknown>[]): Promise<PageNames> {
  const names: PageNames = new Map()
  for (const f of kind.fields) {
    if (f.type !== 'ref' && f.type !== 'user') continue
    const ids = rows.map((r) => r[f.name]).filter((v): v is string => typeof v === 'string')
    names.set(f.name, await recordBulk.referenceNames(db, auth.orgId, f, ids))
  }
  return names
}

async function pageCsv(db: Kysely<DB>, auth: AuthContext, kind: RecordKind, columns: readonly ExportColumn[], rows: readonly Record<string, unknown>[]): Promise<string> {
  const names = await pageNames(db, auth, kind, rows)
  let out = ''
  for (const row of rows) out += csvLine(columns.map((c) => csvCell(c.value(row, names))))
  return out
}

/** The file, from its first page (already read, so a bad query answered a problem before any byte). */
async function* exportLines(db: Kysely<DB>, auth: AuthContext, kind: RecordKind, opts: ListOptions, first: Page): AsyncGenerator<string> {
  const columns = exportColumns(kind, auth, await recordCustomFields.listCustomFieldDefinitions(db, auth.orgId, kind.name))
  yield BOM + csvLine(columns.map((c) => csvCell(c.title)))
  let page = first
  for (;;) {
    if (page.data.length > 0) yield await pageCsv(db, auth, kind, columns, page.data)
    if (!page.next_cursor) return
    page = await readPage(db, auth, kind, { ...opts, cursor: page.next_cursor })
  }
}

/**
 * The export of a list query (already validated) as a byte stream. The first page is read here, so
 * a query the list refuses (a cursor it cannot place, a field the caller may not sort by) throws its
 * problem before any byte is sent; later pages are read as the stream is drained.
 */
export async function openExport(db: Kysely<DB>, auth: AuthContext, kind: RecordKind, query: Record<string, unknown>): Promise<Readable> {
  const opts = { ...recordReads.listOptionsFrom(kind, query), limit: (query.limit as number | undefined) ?? EXPORT_PAGE }
  const first = await readPage(db, auth, kind, opts)
  return Readable.from(exportLines(db, auth, kind, opts, first), { objectMode: false })
}

/** Sorting or filtering by an ERP field needs erp:read, with the step-up challenge (as the list). */
function erpStepUp(kind: RecordKind) {
  const askErp = requireScopes('erp:read')
  return async (request: FastifyRequest, reply: Parameters<typeof askErp>[1]): Promise<void> => {
    const used = recordReads.fieldsUsed(recordReads.listOptionsFrom(kind, request.query as Record<string, unknown>))
    if (recordAccess.erpFieldsAmong(kind, used).length > 0) await askErp(request, reply)
  }
}

function registerExport(fastify: FastifyInstance, kind: RecordKind): void {
  const app = fastify.withTypeProvider<TypedRoutes>()
  app.get(
    `/${kind.path}/export.csv`,
    {
      schema: {
        operationId: `export${kind.labelPlural.replace(/\s/g, '')}Csv`,
        tags: [kind.labelPlural],
        summary: `Export ${kind.labelPlural.toLowerCase()} as CSV`,
        description:
          'Every record of the list with these parameters (the list\'s filters and `sort`; `cursor` starts after that record, `limit` is the size of the pages read), ' +
          'as one CSV file (RFC 4180, UTF-8 with a byte-order mark, a header row of field labels). Columns are the fields the caller may read; a reference is its record\'s name (a member\'s email) with an ID column beside it. ' +
          'Cells that a spreadsheet would run as a formula start with a `\'` (docs/imports.md).',
        querystring: recordSchemas.listQuerySchema(kind),
        response: { 200: { description: 'The CSV file.', content: { 'text/csv': { schema: { type: 'string' } } } }, 400: problemSchema, 401: problemSchema, 403: problemSchema },
      },
      onRequest: requireScopes(...recordAccess.readScopes(kind)),
      preHandler: erpStepUp(kind),
    },
    async (request, reply) => {
      const stream = await openExport(app.readDb, request.auth!, kind, request.query as Record<string, unknown>)
      // A failure after the first byte cannot become a problem: the connection is cut, so the client
      // sees a truncated download, never a file that looks complete.
      stream.on('error', (err) => request.log.error({ err, kind: kind.name }, 'CSV export stopped'))
      const day = new Date().toISOString().slice(0, 10)
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${kind.path}-${day}.csv"`)
      return app.longLived.download(request, reply, 'export', stream)
    },
  )
}

export async function exportRoutes(app: FastifyInstance): Promise<void> {
  for (const kind of recordKinds) if (kind.name !== 'case_comment') registerExport(app, kind)
}
