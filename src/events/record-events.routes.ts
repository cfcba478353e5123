/**
 * `GET /{kind}/{id}/events`: one record's history from the journal, newest first, each event shaped
 * for the caller's scopes like the record itself (amounts hidden without erp:read).
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { keysetPage } from '../http/keyset-page.ts'
import { idParamsSchema, pageQuerySchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { NotFound } from '../shared/errors.ts'
import { recordAccess, recordReads, recordSchemas } from '../records/index.ts'
import { kindsByName, type RecordKind } from '../records/contracts.ts'
import { EVENT_CATALOGUE } from './event-catalogue.ts'
import { eventPageSchema } from './event.schemas.ts'
import { recordEventsPage } from './journal.repository.ts'

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

/** The kinds whose changes produce events (service-spec.md, Events). */
function kindsWithEvents(): RecordKind[] {
  return Object.keys(EVENT_CATALOGUE).map((entity) => kindsByName[entity as keyof typeof EVENT_CATALOGUE])
}

export async function recordEventRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  for (const kind of kindsWithEvents()) {
    app.get(
      `/${kind.path}/:id/events`,
      {
        schema: {
          operationId: `list${recordSchemas.schemaName(kind)}Events`,
          tags: [kind.labelPlural],
          summary: `List the events of ${recordSchemas.withArticle(kind.label.toLowerCase())}`,
          description: `The record's change events from the journal, newest first, kept for the retention period (EVENT_RETENTION_DAYS, default 30); a deleted record's history stays readable. Each event is the webhook body, shaped for the caller's scopes.`,
          params: idParamsSchema,
          querystring: pageQuerySchema,
          response: { 200: eventPageSchema, ...errors },
        },
        onRequest: requireScopes(...recordAccess.readScopes(kind)),
      },
      async (request) => {
        const auth = request.auth!
        const limit = request.query.limit ?? 50
        const rows = await recordEventsPage(app.db, auth.orgId, kind.name, request.params.id, request.query.cursor, limit)
        // An unknown id is a 404; a deleted record with a history still answers its events.
        if (rows.length === 0 && !request.query.cursor && (await recordReads.getRecord(app.db, auth, kind, request.params.id)) === null) throw new NotFound(kind.label)
        const page = keysetPage(rows, limit)
        return { ...page, data: page.data.map((row) => recordAccess.eventForCaller(auth, JSON.parse(row.body) as Record<string, unknown>)) }
      },
    )
  }
}
