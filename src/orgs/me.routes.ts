/** `GET /api/v1/me`: who is signed in, the active organization and role; switching organizations. */
import { writeTransaction } from '../db/write-transaction.ts'
import type { FastifyInstance } from 'fastify'
import { problemSchema, uuidSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { Forbidden, NotFound } from '../shared/errors.ts'
import { findSession, switchSessionOrganization } from './session.service.ts'
import { findUserById, listMembershipsOfUser } from './org.repository.ts'

const meSchema = {
  title: 'Me',
  type: 'object',
  properties: {
    user: { type: ['object', 'null'], properties: { id: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'email', 'name'] },
    organization: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'name'] },
    role: { type: 'string', enum: ['admin', 'member'] },
    scopes: { type: 'array', items: { type: 'string' } },
    organizations: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } }, required: ['id', 'name', 'role'] } },
    csrf_token: { type: ['string', 'null'], description: 'Send as x-csrf-token with every change made with the session cookie.' },
  },
  required: ['user', 'organization', 'role', 'scopes', 'organizations', 'csrf_token'],
}

export async function meRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  app.get('/me', { schema: { operationId: 'getMe', tags: ['Me'], summary: 'The caller: user, active organization and role', response: { 200: meSchema, 401: problemSchema } } }, async (request) => {
    const auth = request.auth!
    const user = auth.userId ? await findUserById(app.db, auth.userId) : null
    const orgs = auth.userId ? await listMembershipsOfUser(app.db, auth.userId) : []
    const session = request.sessionToken ? await findSession(app.db, request.sessionToken) : null
    const active = orgs.find((o) => o.id === auth.orgId)
    return {
      user: user ?? null,
      organization: { id: auth.orgId, name: active?.name ?? '' },
      role: auth.role,
      scopes: [...auth.scopes],
      // A token sees only the organization it was issued for.
      organizations: auth.via === 'session' ? orgs : orgs.filter((o) => o.id === auth.orgId),
      csrf_token: session?.csrfToken ?? null,
    }
  })

  app.post(
    '/me/active-organization',
    {
      schema: {
        operationId: 'switchOrganization',
        tags: ['Me'],
        summary: 'Switch the session to another organization of the signed-in person',
        body: { title: 'ActiveOrganization', type: 'object', additionalProperties: false, required: ['organization_id'], properties: { organization_id: uuidSchema } },
        response: { 204: { type: 'null' }, 403: problemSchema, 404: problemSchema },
      },
    },
    async (request, reply) => {
      if (!request.sessionToken) throw new Forbidden('Only a browser session has an active organization to switch.')
      const ok = await writeTransaction(app.db, request.auth!.receipt, (trx) => switchSessionOrganization(trx, request.sessionToken!, request.body.organization_id))
      if (!ok) throw new NotFound('Organization')
      return reply.status(204).send()
    },
  )
}
