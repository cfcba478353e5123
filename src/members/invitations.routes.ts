/** `/api/v1/invitations`: invite someone by email, list the open invitations, revoke one. Administrators, in the app. */
import { writeTransaction } from '../db/write-transaction.ts'
import type { FastifyInstance } from 'fastify'
import { keysetPage } from '../http/keyset-page.ts'
import { pageQuerySchema, problemSchema } from '../http/schemas.ts'
import type { TypedRoutes } from '../http/type-provider.ts'
import { createMailer } from '../mail/index.ts'
import { NotFound } from '../shared/errors.ts'
import { manageMembers } from './access.ts'
import { listOpenInvitations, revokeInvitation } from './invitation.repository.ts'
import { createInvitation, invitationView } from './invitation.service.ts'
import { invitationCreateBody, invitationCreatedSchema, invitationPageSchema, invitationParams } from './members.schemas.ts'

const tags = ['Members']
const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

export async function invitationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypedRoutes>()
  const deps = { db: app.db, mailer: createMailer(app.config), publicUrl: app.config.publicUrl }

  app.post(
    '/invitations',
    {
      schema: {
        operationId: 'createInvitation',
        tags,
        summary: 'Invite someone by email; the single-use link is in this answer only, and emailed when SMTP is configured',
        body: invitationCreateBody,
        response: { 201: invitationCreatedSchema, ...errors, 409: problemSchema },
      },
      onRequest: manageMembers,
      config: { answerHoldsSecret: true },
    },
    async (request, reply) => {
      const created = await createInvitation(deps, request.auth!.orgId, request.auth!.userId!, request.body, request.auth!.receipt)
      return reply.status(201).header('cache-control', 'no-store').send(created)
    },
  )

  app.get(
    '/invitations',
    {
      schema: { operationId: 'listInvitations', tags, summary: 'List the open invitations (pending or expired), newest first', querystring: pageQuerySchema, response: { 200: invitationPageSchema, ...errors } },
      onRequest: manageMembers,
    },
    async (request) => {
      const limit = request.query.limit ?? 50
      const rows = await listOpenInvitations(app.db, request.auth!.orgId, limit, request.query.cursor)
      return keysetPage(rows.map(invitationView), limit)
    },
  )

  app.delete(
    '/invitations/:id',
    {
      schema: { operationId: 'revokeInvitation', tags, summary: 'Revoke an open invitation: its link stops working at once', params: invitationParams, response: { 204: { type: 'null' }, ...errors } },
      onRequest: manageMembers,
    },
    async (request, reply) => {
      if (!(await writeTransaction(app.db, request.auth!.receipt, (trx) => revokeInvitation(trx, request.auth!.orgId, request.params.id)))) throw new NotFound('Open invitation')
      return reply.status(204).send()
    },
  )
}
