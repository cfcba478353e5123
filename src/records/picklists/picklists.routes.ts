/**
 * `/api/v1/picklists`: the organization's standard picklists (docs/custom-fields.md, Standard
 * picklists). Read by anyone who may read records (forms and integrations need the options);
 * changed by administrators, as custom field definitions are.
 */
import type { FastifyInstance } from 'fastify'
import { requireScopes } from '../../http/auth.ts'
import { adminOnly } from '../../http/roles.ts'
import { problemSchema } from '../../http/schemas.ts'
import type { TypedRoutes } from '../../http/type-provider.ts'
import { recordKinds } from '../kinds/index.ts'
import type { KindName } from '../record-kind.ts'
import { MAX_PICKLIST_OPTIONS } from '../kinds/standard-picklists.ts'
import { getPicklist, listPicklists, picklistFields, resetPicklist, setPicklistOptions, valuesOutsideOptions } from './standard-picklists.ts'

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }
const kindsWithPicklists = recordKinds.filter((k) => picklistFields(k).length > 0).map((k) => k.name)

const picklistSchema = {
  title: 'StandardPicklist',
  type: 'object',
  properties: {
    kind: { type: 'string', enum: kindsWithPicklists },
    field: { type: 'string', description: 'The built-in field (`industry`, `source`, ...).' },
    label: { type: 'string' },
    options: { type: 'array', items: { type: 'string' }, description: 'The values writes may send, in display order.' },
    customized: { type: 'boolean', description: 'False while the organization uses the field\'s starting options.' },
    updated_at: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['kind', 'field', 'label', 'options', 'customized', 'updated_at'],
} as const

const picklistDetailSchema = {
  title: 'StandardPicklistDetail',
  type: 'object',
  properties: {
    ...picklistSchema.properties,
    values_outside_options: {
      type: 'array',
      description: 'Values records hold that are not options (imported data, options removed since), most used first, at most 100.',
      items: { type: 'object', properties: { value: { type: 'string' }, records: { type: 'integer' } }, required: ['value', 'records'] },
    },
  },
  required: [...picklistSchema.required, 'values_outside_options'],
} as const

const paramsSchema = {
  type: 'object',
  required: ['kind', 'field'],
  properties: { kind: { type: 'string', enum: kindsWithPicklists }, field: { type: 'string', pattern: '^[a-z_]{1,63}$' } },
} as const

const optionsBodySchema = {
  title: 'StandardPicklistOptions',
  type: 'object',
  additionalProperties: false,
  required: ['options'],
  properties: {
    options: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_PICKLIST_OPTIONS,
      items: { type: 'string', minLength: 1, maxLength: 120 },
      description: 'The options in display order: 1-200 distinct, non-blank values without commas. Records holding a value removed here keep it.',
    },
  },
} as const

export async function picklistRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const tags = ['Picklists']
  const manage = [requireScopes('crm:write'), adminOnly]

  app.get(
    '/picklists',
    {
      schema: {
        operationId: 'listPicklists',
        tags,
        summary: 'List the standard picklists of the organization and their options',
        querystring: { type: 'object', additionalProperties: false, properties: { kind: { type: 'string', enum: kindsWithPicklists, description: 'Only the picklists of this kind.' } } },
        response: { 200: { title: 'StandardPicklistList', type: 'object', properties: { data: { type: 'array', items: picklistSchema } }, required: ['data'] }, ...errors },
      },
      onRequest: requireScopes('crm:read'),
    },
    async (request) => ({ data: await listPicklists(app.db, request.auth!.orgId, request.query.kind as KindName | undefined) }),
  )
  app.get(
    '/picklists/:kind/:field',
    {
      schema: { operationId: 'getPicklist', tags, summary: 'Get a standard picklist, with the values records hold outside its options', params: paramsSchema, response: { 200: picklistDetailSchema, ...errors } },
      onRequest: requireScopes('crm:read'),
    },
    async (request) => {
      const { kind, field } = request.params
      const picklist = await getPicklist(app.db, request.auth!.orgId, kind, field)
      return { ...picklist, values_outside_options: await valuesOutsideOptions(app.db, request.auth!.orgId, kind, field) }
    },
  )
  app.put(
    '/picklists/:kind/:field',
    {
      schema: { operationId: 'setPicklistOptions', tags, summary: 'Replace a standard picklist\'s options (administrators); records keep their values', params: paramsSchema, body: optionsBodySchema, response: { 200: picklistSchema, ...errors } },
      onRequest: manage,
    },
    async (request) => setPicklistOptions(app.db, request.auth!.orgId, request.params.kind, request.params.field, request.body.options, request.auth!.receipt),
  )
  app.delete(
    '/picklists/:kind/:field',
    {
      schema: { operationId: 'resetPicklist', tags, summary: 'Put a standard picklist back to its starting options (administrators)', params: paramsSchema, response: { 200: picklistSchema, ...errors } },
      onRequest: manage,
    },
    async (request) => resetPicklist(app.db, request.auth!.orgId, request.params.kind, request.params.field, request.auth!.receipt),
  )
}
