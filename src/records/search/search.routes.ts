/**
 * `GET /api/v1/search`: records of every kind the caller may read, matched by name, email, domain,
 * code or case number, best first (docs/api.md, Search).
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../../http/auth.ts'
import { problemSchema } from '../../http/schemas.ts'
import type { TypedRoutes } from '../../http/type-provider.ts'
import { SEARCH_KINDS, type SearchKindName } from './search-fields.ts'
import { searchRecords } from './search.service.ts'

export const MAX_SEARCH_LENGTH = 100
export const MAX_SEARCH_LIMIT = 50
const KIND_ALTERNATIVES = `(${SEARCH_KINDS.join('|')})`

export const searchQuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['q'],
  properties: {
    q: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_SEARCH_LENGTH,
      pattern: '\\S',
      description:
        'What to find: a case-insensitive match on names, emails, domains, companies, product codes and subjects (`%` and `_` are literal), or a case number (`42`, `#42`). ' +
        'Exact and prefix matches rank first; from 3 characters, values containing the text match too.',
    },
    kinds: {
      type: 'string',
      pattern: `^${KIND_ALTERNATIVES}(,${KIND_ALTERNATIVES})*$`,
      description: `Comma-separated kinds to search (${SEARCH_KINDS.join(', ')}); default all. Kinds the token may not read are left out.`,
    },
    limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT, default: 20, description: `Results, 1-${MAX_SEARCH_LIMIT}.` },
  },
} as const

export const searchResultsSchema = {
  title: 'SearchResults',
  type: 'object',
  properties: {
    data: {
      type: 'array',
      items: {
        title: 'SearchHit',
        type: 'object',
        properties: {
          kind: { type: 'string', enum: [...SEARCH_KINDS] },
          id: { type: 'string', format: 'uuid' },
          title: { type: 'string' },
          subtitle: { type: ['string', 'null'], description: 'Email, domain, company, product code, case number, stage or activity kind.' },
          score: { type: 'number', description: '1 for an exact match; prefix matches 0.6-0.9, substring matches 0.2-0.5.' },
        },
        required: ['kind', 'id', 'title', 'subtitle', 'score'],
      },
    },
  },
  required: ['data'],
} as const

export async function searchRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  app.get(
    '/search',
    {
      schema: {
        operationId: 'searchRecords',
        tags: ['Search'],
        summary: 'Find records of any kind',
        description: 'Best matches first across the kinds the token may read (products need erp:read). Scoped to the organization.',
        querystring: searchQuerySchema,
        response: { 200: searchResultsSchema, 400: problemSchema, 401: problemSchema, 403: problemSchema },
      },
      // Every searched kind needs crm:read; products need erp:read as well, checked per kind.
      onRequest: requireScopes('crm:read'),
    },
    async (request) => {
      const { q, kinds, limit } = request.query
      const wanted = kinds ? (kinds.split(',') as SearchKindName[]) : undefined
      return { data: await searchRecords(app.readDb, request.auth!, { q, kinds: wanted, limit: limit ?? 20 }) }
    },
  )
}
