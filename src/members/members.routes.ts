/** `/api/v1/members`: the people of the organization, changing a role, removing someone. */
import type { FastifyInstance } from 'fastify'
import { keysetPageBy } from '../http/keyset-page.ts'
import { pageQuerySchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { recordChanges } from '../records/index.ts'
import { manageMembers, readMembers } from './access.ts'
import { listMembers } from './member.repository.ts'
import { changeMemberRole, memberView, removeMember } from './member.service.ts'
import { memberPageSchema, memberParams, memberPatchBody, memberSchema } from './members.schemas.ts'

const tags = ['Members']
const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

export async function memberRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()

  app.get(
    '/members',
    { schema: { operationId: 'listMembers', tags, summary: 'List the members of the organization, oldest account first', querystring: pageQuerySchema, response: { 200: memberPageSchema, ...errors } }, preHandler: readMembers },
    async (request) => {
      const limit = request.query.limit ?? 50
      const rows = await listMembers(app.db, request.auth!.orgId, limit, request.query.cursor)
      return keysetPageBy(rows.map(memberView), limit, (m) => m.user_id)
    },
  )

  app.patch(
    '/members/:user_id',
    {
      schema: {
        operationId: 'updateMember',
        tags,
        summary: "Change a member's role (administrators, in the app); never demotes the last administrator",
        params: memberParams,
        body: memberPatchBody,
        response: { 200: memberSchema, ...errors, 409: problemSchema },
      },
      onRequest: manageMembers,
    },
    async (request) => changeMemberRole(app.db, request.auth!.orgId, request.auth!.userId!, request.params.user_id, request.body.role, request.auth!.receipt),
  )

  app.delete(
    '/members/:user_id',
    {
      schema: {
        operationId: 'removeMember',
        tags,
        summary: 'Remove someone from the organization: their sessions and tokens here end at once; never the last administrator',
        params: memberParams,
        response: { 204: { type: 'null' }, ...errors, 409: problemSchema },
      },
      onRequest: manageMembers,
    },
    async (request, reply) => {
      await removeMember(app.db, recordChanges.writerOf(request), request.params.user_id)
      return reply.status(204).send()
    },
  )
}
