/**
 * An import's per-row issues as a CSV download (a long-lived answer, app.longLived), read a page at
 * a time as the client takes it.
 */
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { idParamsSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { NotFound } from '../shared/errors.ts'
import { csvCell, csvLine } from '../shared/csv-cell.ts'
import { findImport, issuesAfter } from './import.repository.ts'
import { errors, tags, write } from './import-route-kit.ts'

/** The issues file, read a page at a time as the client takes it. */
function issuesCsv(app: FastifyInstance, orgId: string, importId: string): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(['row', 'column', 'field', 'message'])
    let after: { row: number; ordinal: number } | null = null
    for (;;) {
      const page = await issuesAfter(app.db, orgId, importId, after, 1000)
      if (page.length === 0) return
      yield page.map((i) => csvLine([csvCell(i.row_number), csvCell(i.column_name), csvCell(i.field), csvCell(i.message)])).join('')
      const last = page[page.length - 1]
      after = { row: last.row_number, ordinal: last.ordinal }
    }
  }
  return Readable.from(lines(), { objectMode: false })
}

export function importIssueRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypedRoutes>()

  app.get(
    '/imports/:id/issues.csv',
    {
      schema: {
        tags,
        operationId: 'exportImportIssues',
        summary: "Download an import's issues as CSV",
        description: 'One line per issue, in file order: row (as a spreadsheet numbers it, the header being row 1), column, field, message.',
        params: idParamsSchema,
        response: { 200: { description: 'The CSV file.', content: { 'text/csv': { schema: { type: 'string' } } } }, ...errors },
      },
      onRequest: write,
    },
    async (request, reply) => {
      const row = await findImport(app.db, request.auth!.orgId, request.params.id)
      if (!row) throw new NotFound('Import')
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="import-issues-${row.id}.csv"`)
      return app.longLived.download(request, reply, 'import_issues', issuesCsv(app, row.org_id, row.id))
    },
  )
}
